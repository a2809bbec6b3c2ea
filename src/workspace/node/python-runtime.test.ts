/**
 * What a command on the Node workspace ran on: a command that runs this machine's Python says
 * Python's version in its result (ExecResult.runtime), which a shell step records; any other
 * command says nothing, and the step keeps the workspace's own runtime.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { singleCommand } from '../../engine/workspace.ts';
import { hostPython } from './host-python.ts';
import { NodeWorkspace } from './node-workspace.ts';

const python = hostPython();
if (!python) console.log('Python runtime tests skipped: no python3 on this machine');

describe.skipIf(!python)("a command's runtime on the Node workspace", () => {
  let dir: string;
  let ws: NodeWorkspace;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'slm-runtime-'));
    ws = await NodeWorkspace.open(dir);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it.each<[string[], boolean]>([
    [['python3', '-c', 'print(1)'], true],
    [['python', '-c', 'print(1)'], true],
    [['echo', 'python3'], false],
    [['node', '-e', '1'], false],
  ])('%j → Python runtime: %s', async (argv, isPython) => {
    const r = await ws.exec(singleCommand(argv), { cwd: '', timeoutMs: 20_000, maxOutputBytes: 4096 });
    expect(r.runtime).toBe(isPython ? `Python ${python!.version}` : undefined);
  });
});
