/**
 * The example sessions in examples/: each replays ✓, each is what scripts/make-examples.ts
 * makes today (a stale one fails with the command that regenerates it), the drifted edit is
 * placed by the ladder, and a 100-step session replays and verifies.
 */
import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeWasm } from '../support/node-wasm.ts';
import { replaySession } from '../../src/session/replay.ts';
import { parseSessionFile } from '../../src/session/share-codec.ts';
import type { Session } from '../../src/session/record.ts';
import {
  buildExample,
  EXAMPLE_SCRIPTS,
  examplePath,
  exampleFileText,
  hundredStepScript,
  REGENERATE,
} from '../../scripts/make-examples.ts';
import { lessonWorkspace } from '../../scripts/make-lessons.ts';

beforeAll(() => useNodeWasm());

const names = EXAMPLE_SCRIPTS.map((s) => s.name);

async function loadExample(name: string): Promise<Session> {
  const text = await readFile(examplePath(name), 'utf8').catch(() => null);
  if (text === null) expect.fail(`examples/${name}.session.json is missing; write it with \`${REGENERATE}\``);
  const checked = await parseSessionFile(text);
  if (!checked.ok) expect.fail(`examples/${name}.session.json does not read as a session: ${checked.text}`);
  return checked.session;
}

describe('example sessions', () => {
  it('include a drifted edit and a 30-step session', () => {
    expect(names).toEqual(expect.arrayContaining(['drifted-edit', 'thirty-steps']));
  });

  it.each(names)('%s replays: every step ✓', async (name) => {
    const report = await replaySession(await loadExample(name), { workspace: await lessonWorkspace() });
    expect(report.divergence).toBeUndefined();
    expect(report.ok).toBe(true);
  });

  it.each(names)('%s is up to date with scripts/make-examples.ts and this engine', async (name) => {
    const script = EXAMPLE_SCRIPTS.find((s) => s.name === name)!;
    const fresh = exampleFileText(await buildExample(script));
    const onDisk = await readFile(examplePath(name), 'utf8').catch(() => '');
    if (onDisk !== fresh) {
      expect.fail(
        `examples/${name}.session.json is out of date: the engine or the script changed since it was written. Regenerate the examples with \`${REGENERATE}\` and commit them.`,
      );
    }
  });

  it('drifted-edit: read → an edit whose old_str is indented differently, placed by the ladder → done', async () => {
    const s = await loadExample('drifted-edit');
    expect(s.workspace).toEqual({ template: { id: 'starter', hash: expect.stringMatching(/^[0-9a-f]{12}$/) } });
    expect(s.steps.map((st) => st.call?.tool)).toEqual(['ws_read', 'ws_edit', 'done']);
    expect(s.steps[1]!.resultText).toMatch(
      /^edited src\/strings\.js \(1 replacement\(s\)\) \[matched after normalizing indentation/,
    );
    expect(s.steps[1]!.workspaceHash).not.toBe(s.steps[0]!.workspaceHash);
  });

  it('thirty-steps: 30 steps of reads, searches and edits', async () => {
    const s = await loadExample('thirty-steps');
    expect(s.steps).toHaveLength(30);
    const tools = new Set(s.steps.map((st) => st.call?.tool));
    for (const tool of [
      'ws_read',
      'ws_grep',
      'ws_glob',
      'ws_list',
      'ws_edit',
      'ws_write',
      'ws_mv',
      'ws_delete',
      'ws_replace_lines',
      'done',
    ])
      expect(tools).toContain(tool);
  });

  // How long it takes is the bench's figure (bench/share.ts), not a test's.
  it('a 100-step session replays and verifies', async () => {
    const session = await buildExample(hundredStepScript());
    expect(session.steps).toHaveLength(100);
    // It ends on passing tests, whose output is the same on every runtime (the browser's e2e replays it too).
    expect(session.steps.at(-1)!.tally).toMatchObject({ failed: 0 });
    const report = await replaySession(session, { workspace: await lessonWorkspace() });
    expect(report.divergence).toBeUndefined();
    expect(report.ok).toBe(true);
  });
});
