/**
 * How `slm call`, `batch` and `run` choose the OS sandbox for the model's commands: bubblewrap
 * when it can run (nothing said), else — only with --unsandboxed-commands — directly, with the
 * risk said on stderr, else not at all, with why and the flag said on stderr and in the result.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeHostSandbox } from '../../src/workspace/node/host-sandbox.ts';
import { cleanup, envWithoutBwrap, runCli, tempRoot } from './cli-process.ts';

const NOT_RUN =
  /commands are not run: the OS sandbox \(bubblewrap\) cannot run here — bwrap is not installed \(no bwrap on PATH\)\. Install bubblewrap .* or pass --unsandboxed-commands, which runs the model's commands directly on this machine, with your user's access to files and network\./;
const RISK =
  /commands ran without an OS sandbox \(--unsandboxed-commands\): the model's commands run directly on this machine/;

let root: string;
let noBwrap: NodeJS.ProcessEnv;
beforeAll(async () => {
  root = await tempRoot();
  await writeFile(join(root, 'a.txt'), 'alpha\n');
  noBwrap = await envWithoutBwrap();
});
afterAll(cleanup);

describe('where bubblewrap cannot run', () => {
  it('slm call says on stderr that commands are not run, why, and the flag; file tools still work', async () => {
    const r = await runCli(['call', 'ws_read', '{"path":"a.txt"}', '--root', root], '', noBwrap);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`^slm call: ${NOT_RUN.source}\\n$`));
  });

  it('a command is not run: its result says why and names the flag', async () => {
    const r = await runCli(['call', 'ws_shell', '{"command":"ls"}', '--root', root], '', noBwrap);
    expect(r.stdout).toMatch(NOT_RUN);
    expect(r.code).toBe(1);
  });

  it('with --unsandboxed-commands, runs them and says the risk on stderr', async () => {
    const r = await runCli(
      ['call', 'ws_read', '{"path":"a.txt"}', '--root', root, '--unsandboxed-commands'],
      '',
      noBwrap,
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`^slm call: ${RISK.source}`));
  });

  // Each row: the command line → its stderr says commands are not run.
  const commands: [string, string[], string][] = [
    ['batch', ['batch'], `${JSON.stringify({ root, tool: 'ws_read', args: { path: 'a.txt' } })}\n`],
    ['run', ['run', '--model', 'scripted:/nonexistent.json', '--task', 't', '--root', '.'], ''],
  ];
  it.each(commands)('slm %s says it too', async (name, args, input) => {
    const r = await runCli(
      args.map((a) => (a === '.' ? root : a)),
      input,
      noBwrap,
    );
    expect(r.stderr).toMatch(new RegExp(`^slm ${name}: ${NOT_RUN.source}\\n`));
  });

  it('slm batch takes the flag and nothing else', async () => {
    const ok = await runCli(['batch', '--unsandboxed-commands'], '', noBwrap);
    expect(ok).toMatchObject({ code: 0 });
    expect(ok.stderr).toMatch(RISK);
    const bad = await runCli(['batch', '--verbose']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^slm batch: takes no arguments but --unsandboxed-commands \(got --verbose\)/);
  });
});

describe.skipIf(!('kind' in (await probeHostSandbox())))('where bubblewrap runs', () => {
  it('says nothing about the sandbox, even with the flag', async () => {
    const r = await runCli(['call', 'ws_read', '{"path":"a.txt"}', '--root', root, '--unsandboxed-commands']);
    expect(r).toMatchObject({ code: 0, stderr: '' });
  });
});
