/**
 * A session recorded anywhere replays everywhere: the starter run (whose first ws_test has a
 * failing test), every lesson and every example, recorded on the browser's runtime (the memory
 * backend whose `node` is the JavaScript sandbox) replay on the CLI's (the memory backend whose
 * `node` is real Node in bubblewrap), and recorded on the CLI's replay on the browser's. A step
 * whose command output differs only where the runtimes differ is counted as equivalent, with
 * the diff, never as a divergence; `slm replay` passes it and `--strict` does not.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFile } from 'node:fs/promises';
import { PassThrough } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { replayCommand } from '../../src/cli/commands/replay.ts';
import { EXIT } from '../../src/cli/command.ts';
import type { Workspace } from '../../src/engine/workspace.ts';
import { NodeWorkspace } from '../../src/workspace/node/node-workspace.ts';
import { ScriptedModel } from '../../src/agent/models/scripted.ts';
import { STARTER_RUN } from '../../src/agent/scripts/starter-run.ts';
import { createEngine } from '../../src/engine/create.ts';
import { recordedOutside } from '../../src/session/recorded-outside.ts';
import type { Session } from '../../src/session/record.ts';
import { agentSettings, loopSettings, recordRun } from '../../src/session/recorder.ts';
import { DEFAULT_SETTINGS } from '../../src/engine/settings.ts';
import { replaySession } from '../../src/session/replay.ts';
import { formatReplay } from '../../src/session/replay-text.ts';
import { sharedForm } from '../../src/session/record.ts';
import { seedStart } from '../../src/session/start.ts';
import { MemoryWorkspace } from '../../src/workspace/memory/memory-workspace.ts';
import { SandboxJsEngine } from '../../src/workspace/memory/js-sandbox.ts';
import { NodeJsEngine } from '../../src/workspace/memory/node-runner.ts';
import { ShellRunner } from '../../src/workspace/memory/shell-runner.ts';
import { probeHostSandbox } from '../../src/workspace/node/host-sandbox.ts';
import { shortTemplateHash } from '../../src/session/start.ts';
import { STARTER_TEMPLATE } from '../../src/workspace/templates/index.ts';
import { useNodeWasm } from '../support/node-wasm.ts';
import { threadWorker } from '../support/sandbox-thread.ts';
import { BUNDLED_FILES, loadBundled } from '../lessons/bundled-files.ts';

const probed = await probeHostSandbox();
const bwrap = 'kind' in probed ? probed : null;
if (!('kind' in probed))
  console.warn(`cross-backend replays skipped: the CLI's runtime needs bubblewrap, and ${probed.why}`);

beforeAll(() => useNodeWasm());

/** The two runtimes a memory workspace's `node` has: the browser's sandbox, and Node in bubblewrap (the CLI's). */
const RUNTIMES = {
  browser: async (): Promise<Workspace> =>
    new MemoryWorkspace(undefined, undefined, new ShellRunner(new SandboxJsEngine(threadWorker))),
  cli: async (): Promise<Workspace> =>
    new MemoryWorkspace(undefined, undefined, new ShellRunner(new NodeJsEngine(bwrap!))),
  /** `slm run`: a project directory on the host, its commands in bubblewrap. */
  'slm run': async (): Promise<Workspace> =>
    NodeWorkspace.open(await mkdtemp(join(tmpdir(), 'slm-cross-')), { sandbox: bwrap! }),
} as const;
type Runtime = keyof typeof RUNTIMES;
/** Where each runtime's sessions are replayed: the other side. */
const OTHER: Record<Runtime, Runtime> = { browser: 'cli', cli: 'browser', 'slm run': 'browser' };

/** `session`'s raw outputs recorded again on `runtime`: the session a person there would have made. */
async function recordOn(runtime: Runtime, session: Session): Promise<Session> {
  const ws = await RUNTIMES[runtime]();
  const seeded = await seedStart(ws, session.workspace);
  if (!seeded.ok) throw new Error(seeded.text);
  const { session: made } = await recordRun({
    // A page or MCP answer the session recorded is answered from its record, as the person there would have been answered.
    engine: createEngine(ws, session.settings.engine, { outside: recordedOutside(session.steps) }),
    model: new ScriptedModel(
      session.steps.map((s) => s.raw),
      { family: String(session.model.params.family ?? 'scripted') },
    ),
    task: session.task,
    seed: session.model.seed,
    temperature: session.model.temperature,
    ...loopSettings(session.settings.agent),
    approval: 'auto',
    createdAt: session.createdAt,
  });
  return made;
}

/** The starter run as the playground's default run records it. */
function starterSession(): Session {
  return {
    v: 1,
    engineVersion: '',
    createdAt: '2026-01-01T00:00:00.000Z',
    settings: {
      engine: { ...DEFAULT_SETTINGS, disabled_rungs: [], web_domains: [], mcp_servers: [] },
      agent: agentSettings({}),
    },
    model: {
      id: `scripted:${STARTER_RUN.id}`,
      kind: 'scripted',
      params: { family: 'scripted' },
      seed: 0,
      temperature: 0,
    },
    task: STARTER_TEMPLATE.task,
    workspace: { template: { id: STARTER_TEMPLATE.id, hash: shortTemplateHash(STARTER_TEMPLATE.hash) } },
    steps: STARTER_RUN.outputs.map((raw) => ({ raw, resultHash: '', workspaceHash: '' })),
  };
}

const SOURCES: [string, () => Promise<Session>][] = [
  ['the starter run', async () => starterSession()],
  ...BUNDLED_FILES.map((f) => [f.name, () => loadBundled(f)] as [string, () => Promise<Session>]),
];

describe.skipIf(!bwrap)('recorded on one runtime, replayed on the other', () => {
  it.each(
    SOURCES.flatMap(([name, load]) =>
      (name === 'the starter run' ? (['browser', 'cli', 'slm run'] as const) : (['browser', 'cli'] as const)).map(
        (from) => [name, from, load] as const,
      ),
    ),
  )(
    '%s, recorded on the %s runtime',
    async (name, from, load) => {
      const source = await load();
      const made = await recordOn(from, source);
      const to = OTHER[from];
      // The file the person downloads, and the link they share.
      for (const form of [made, sharedForm(made)]) {
        const report = await replaySession(form, { workspace: await RUNTIMES[to]() });
        expect(report.divergence, formatReplay(report)).toBeUndefined();
        expect(report.ok).toBe(true);
        // The starter run's first ws_test fails a test: each runtime prints that failure its own way.
        if (name === 'the starter run') {
          expect(report.steps[0]!.equivalent).toBeDefined();
          // The file keeps the recorded output, so the step shows how it differs; a link only that it does.
          if (form === made) expect(report.steps[0]!.equivalent!.diff).toMatch(/^@@ recorded line/);
          expect(formatReplay(report)).toMatch(
            /^✓ reproduced: .*; 1 step equivalent, not identical \(recorded → replayed: /,
          );
        }
        for (const step of report.steps.filter((s) => s.equivalent)) {
          expect(step.tool).toMatch(/^(ws_test|ws_shell|done)$/);
          expect(step.equivalent!.why).toMatch(/same exit code .* and the same workspace after it/);
        }
      }
    },
    180_000,
  );
});

/** `slm replay` in this process, its output collected. */
async function slmReplay(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = new PassThrough();
  const err = new PassThrough();
  let stdout = '';
  let stderr = '';
  out.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  err.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const code = await replayCommand.run(args, { stdin: new PassThrough(), stdout: out, stderr: err });
  return { code, stdout, stderr };
}

describe.skipIf(!bwrap)('slm replay of a browser-made default run', () => {
  it('exits 0 and counts the equivalent step with where it ran; --strict exits 1 and says why', async () => {
    const made = await recordOn('browser', starterSession());
    const file = join(await mkdtemp(join(tmpdir(), 'slm-cross-file-')), 'starter.session.json');
    await writeFile(file, JSON.stringify(made));
    const plain = await slmReplay([file]);
    expect(plain.stdout).toMatch(
      /^✓ reproduced: 7 steps on the memory backend \(Node v[\d.]+\) in \d+ ms; 1 step equivalent, not identical \(recorded → replayed: memory with the browser's JavaScript sandbox → memory with Node v[\d.]+\)/,
    );
    expect(plain.stdout).toMatch(
      /\nstep 1 \(ws_test\): The command printed other text .* same exit code \(1\), the same tally \(8 passed, 1 failed\), the same failing tests \(truncate never returns more than max characters\)/,
    );
    expect(plain.code).toBe(EXIT.ok);
    const strict = await slmReplay([file, '--strict']);
    expect(strict.stdout).toMatch(
      /\n✗ --strict: 1 step is equivalent, not identical; without --strict this replay passes\.\n$/,
    );
    expect(strict.code).toBe(EXIT.failed);
  }, 180_000);
});
