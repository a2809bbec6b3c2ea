/**
 * A command on the Node workspace, in the bubblewrap sandbox, held to one memory cap for all its
 * stages together: a pipeline whose two stages each stay under the cap but together go past it
 * is killed, and the result says it was the cap. The cap here is 200 MiB (the sandbox's own is
 * LIMITS.memoryBytes). Skipped, with the reason printed, where bwrap or a cgroup is unavailable.
 */
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExecPlan } from '../../engine/workspace.ts';
import { probeHostSandbox, type HostSandbox } from './host-sandbox.ts';
import { probeMemoryCap, type MemoryCap } from './memory-cap.ts';
import { NodeWorkspace } from './node-workspace.ts';

const probed = await probeHostSandbox();
const cap = probeMemoryCap(200 * 1024 ** 2);
const sandbox: HostSandbox | undefined = 'kind' in probed ? probed : undefined;
const small: MemoryCap | undefined = 'layout' in cap ? cap : undefined;
const why = !sandbox
  ? `bubblewrap cannot run here (${'why' in probed ? probed.why : ''})`
  : !small
    ? 'unavailable' in cap
      ? cap.unavailable
      : ''
    : '';
if (why) console.log(`memory-cap exec tests skipped: ${why}`);

let dir: string;
let ws: NodeWorkspace;

beforeAll(async () => {
  if (why) return;
  dir = await realpath(await mkdtemp(join(tmpdir(), 'slm-cap-ws-')));
  ws = await NodeWorkspace.open(dir, { sandbox: { ...sandbox!, memoryCap: small! } });
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** node holding `mb` MiB for a moment, then printing what it held. */
function hold(mb: number): string[] {
  return [
    'node',
    '-e',
    `const a = []; for (let i = 0; i < ${mb / 10}; i++) a.push(Buffer.alloc(10 * 1024 * 1024, 1)); setTimeout(() => console.log('held ${mb}'), 400);`,
  ];
}

/** Two stages side by side (the first's output piped into the second, which ignores it). */
function pair(a: number, b: number): ExecPlan {
  return {
    stages: [
      { argv: hold(a), stdin: 'empty', stdout: 'next', stderr: 'output' },
      { argv: hold(b), stdin: 'pipe', stdout: 'next', stderr: 'output' },
    ],
  };
}

describe.skipIf(Boolean(why))('one memory cap for all of a command’s processes (bubblewrap, 200 MiB)', () => {
  it('a pipeline within the cap runs as usual, with no word of the cap', async () => {
    const r = await ws.exec(pair(20, 20), { timeoutMs: 20_000, maxOutputBytes: 10_000 });
    expect(r).toMatchObject({ exitCode: 0, output: 'held 20\n' });
    expect(r.backendNote ?? '').not.toMatch(/memory cap/);
  });

  it('two stages each under the cap, together past it: killed, and the result names the cap', async () => {
    const r = await ws.exec(pair(150, 150), { timeoutMs: 20_000, maxOutputBytes: 10_000 });
    expect(r.backendNote).toMatch(
      /^killed by the memory cap: the command's processes together went past 200 MiB \((one process was|\d processes were) ended by the kernel\)/,
    );
  });
});
