/**
 * The split view's replay over the worker protocol: a bundled session comes back as one step
 * record per recorded step, each checked against the record, with its notes, change and budget;
 * and the run on screen is not stopped by it.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { STARTER_RUN } from '../agent/scripts/starter-run.ts';
import { useNodeWasm } from '../platform/node-wasm.ts';
import type { Session } from '../session/record.ts';
import type { EngineClient, RunEvent } from './client.ts';
import { connectInProcess } from './in-process.ts';
import { RUN_DEFAULTS } from './run-settings.ts';
import { createTemplateSession } from './starter-session.ts';

useNodeWasm();

const open: EngineClient[] = [];
afterEach(() => {
  for (const c of open.splice(0)) c.dispose();
});

function connect(): EngineClient {
  const { client } = connectInProcess(() => createTemplateSession());
  open.push(client);
  return client;
}

const example = (name: string): Session =>
  JSON.parse(readFileSync(new URL(`../../examples/${name}.session.json`, import.meta.url), 'utf8')) as Session;

describe('replay-records', () => {
  it.each([
    ['drifted-edit', 3],
    ['thirty-steps', 30],
  ])('replays every step of %s and checks each against its record', async (name, steps) => {
    const client = connect();
    const session = example(name);
    const replayed = await client.replayRecords(session);
    expect(replayed.records.map((r) => r.step.index)).toEqual(Array.from({ length: steps }, (_, i) => i + 1));
    // Every step is checked; those before done ran no command, so they reproduce on any backend.
    expect(replayed.records.every((r) => r.check !== undefined)).toBe(true);
    expect(replayed.records.slice(0, -1).every((r) => r.check?.reproduced)).toBe(true);
    expect(replayed.verdict?.ok).toBe(replayed.records.every((r) => r.check?.reproduced));
    expect(replayed.info.model.scripted).toBe(true);
    expect(replayed.records.map((r) => r.step.call?.tool ?? null)).toEqual(
      session.steps.map((s) => s.call?.tool ?? null),
    );
  });

  it('shows the edit a drifted step made and its ladder rung', async () => {
    const replayed = await connect().replayRecords(example('drifted-edit'));
    const edit = replayed.records[1]!;
    expect(edit.changes.map((c) => c.path)).toEqual(['src/strings.js']);
    expect(edit.step.result?.notes.some((n) => n.kind === 'rung')).toBe(true);
    expect(edit.step.budget.window).toBeGreaterThan(0);
  });

  it('refuses a record that fails the schema, with the reason', async () => {
    await expect(connect().replayRecords({ ...example('drifted-edit'), v: 9 } as unknown as Session)).rejects.toThrow(
      /version|v/i,
    );
  });

  it('leaves the run on screen running', async () => {
    const client = connect();
    const events: RunEvent[] = [];
    client.onRunEvent((_id, e) => events.push(e));
    const info = await client.startRun({
      task: { kind: 'template', templateId: 'starter' },
      model: { kind: 'scripted', recordedId: STARTER_RUN.id },
      settings: { ...RUN_DEFAULTS, paceMs: 0 },
      paused: true,
    });
    await client.replayRecords(example('drifted-edit'));
    await client.controlRun(info.runId, 'resume');
    await expect
      .poll(() => events.find((e) => e.kind === 'ended'), { timeout: 30_000 })
      .toMatchObject({ stop: { kind: 'done' } });
    expect(events.filter((e) => e.kind === 'step')).toHaveLength(STARTER_RUN.outputs.length);
  });
});
