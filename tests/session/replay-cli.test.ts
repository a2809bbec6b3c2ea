/**
 * `slm replay` through the real CLI, as a script would run it: exit 0 when every step
 * reproduces (from a file, a full link, or the bare encoded string), 1 at a divergence, 2 for
 * a malformed command line or a session that cannot be read — with the reason on stderr. And
 * `slm run --out` writes a record that `slm replay` verifies.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, cliTimeout, envWithoutBwrap, runCli, tempRoot } from '../cli/cli-process.ts';
import { probeHostSandbox } from '../../src/workspace/node/host-sandbox.ts';

const sandboxed = 'kind' in (await probeHostSandbox());
import type { Session } from '../../src/session/record.ts';
import { shareUrl } from '../../src/session/share-codec.ts';
import { examplePath } from '../../scripts/make-examples.ts';
import { FIX_OUTPUTS, MATH } from './support.ts';

let dir: string;
let session: Session;
const example = examplePath('drifted-edit');

beforeAll(async () => {
  dir = await tempRoot();
  session = JSON.parse(await readFile(example, 'utf8')) as Session;
});
afterAll(cleanup);

// Every test starts one real CLI process (two for run → replay), each allowed CLI_PROCESS_MS.
describe('slm replay', { timeout: cliTimeout(1) }, () => {
  it('verifies a session file: exit 0 and the ✓ verdict', async () => {
    const r = await runCli(['replay', example]);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(
      /^✓ reproduced: 3 steps on the memory backend( \(Node v[\d.]+\))? in \d+ ms, every result and workspace matches the record\n$/,
    );
    expect(r.code).toBe(0);
  });

  it('verifies a full link and, with --print, prints each result exactly as the model saw it under a header', async () => {
    const r = await runCli(['replay', await shareUrl(session, 'http://localhost:5173/'), '--print']);
    expect(r.code).toBe(0);
    const expected = session.steps.map((s, i) => `=== step ${i + 1} · ${s.call!.tool} · ✓\n${s.resultText}\n`).join('');
    expect(r.stdout.startsWith(expected)).toBe(true);
    expect(r.stdout.slice(expected.length)).toMatch(/^✓ reproduced: 3 steps/);
  });

  it('verifies the bare encoded string', async () => {
    const url = await shareUrl(session, 'http://localhost:5173/');
    const r = await runCli(['replay', url.slice(url.indexOf('#s=') + 3)]);
    expect(r.code).toBe(0);
  });

  it('exits 1 at a divergence and names it', async () => {
    const file = join(dir, 'tampered.session.json');
    const steps = session.steps.map((s, i) =>
      i === 0 ? { ...s, raw: '{"tool": "ws_read", "args": {"path": "README.md"}}' } : s,
    );
    await writeFile(file, JSON.stringify({ ...session, steps }));
    const r = await runCli(['replay', file]);
    expect(r.stdout).toMatch(
      /^✗ diverged at step 1 \(result\): Step 1 \(ws_read\) gave a different result from the recorded one\.[^\n]*\n@@ first difference at line 1 @@\n- \[src\/strings\.js#/,
    );
    expect(r.code).toBe(1);
  });

  // Each row: arguments → what stderr must say; every one exits 2.
  const bad: [string, () => string[], RegExp][] = [
    [
      'a damaged link',
      () => ['replay', 'http://localhost:5173/#s=ab!cd'],
      /^slm replay: The session link is damaged: it contains "!" \(U\+0021\) at position 3 .* Ask for the session file/,
    ],
    [
      'a file that is not a session',
      () => ['replay', join(dir, 'not-a-session.json')],
      /^slm replay: This is not a valid session record: field v: /,
    ],
    [
      'a missing file',
      () => ['replay', join(dir, 'missing.session.json')],
      /^slm replay: no file .*missing\.session\.json; give a session file/,
    ],
    [
      'no session named',
      () => ['replay'],
      /^slm replay: name the session: .*\n\nusage:\n {2}slm replay FILE_OR_URL \[--print\]/,
    ],
    ['an unknown option', () => ['replay', example, '--verbose'], /^slm replay: Unknown option '--verbose'/],
  ];
  it.each(bad)('exits 2 for %s, with the reason', async (_name, args, message) => {
    await writeFile(join(dir, 'not-a-session.json'), '{"hello": "world"}');
    const r = await runCli(args());
    expect(r.stderr).toMatch(message);
    expect(r.code).toBe(2);
  });
});

describe(
  'slm replay of a session whose steps ran tests (the loops-and-stalls lesson)',
  { timeout: cliTimeout(1) },
  () => {
    const lesson = 'lessons/loops-and-stalls.session.json';
    if (!sandboxed)
      console.info(
        'replay-cli: skips the sandboxed replay of loops-and-stalls: bubblewrap cannot run on this machine.',
      );

    it.skipIf(!sandboxed)(
      'runs its commands again inside the OS sandbox, headless: exit 0 and the ✓ verdict',
      async () => {
        const r = await runCli(['replay', lesson]);
        expect(r.stderr).toBe('');
        expect(r.stdout).toMatch(
          /^✓ reproduced: 8 steps on the memory backend( \(Node v[\d.]+\))? in \d+ ms, every result and workspace matches the record\n$/,
        );
        expect(r.code).toBe(0);
      },
    );

    it('where bubblewrap cannot run, runs none of them, says so, and exits 1 at the first test run', async () => {
      const r = await runCli(['replay', lesson], '', await envWithoutBwrap());
      expect(r.stderr).toMatch(
        /^slm replay: this session's commands were not run: the OS sandbox \(bubblewrap\) cannot run here — bwrap is not installed .*Install bubblewrap/,
      );
      expect(r.stdout).toMatch(/^✗ diverged at step 1 \(shell\): .*this replay's workspace runs no commands/);
      expect(r.code).toBe(1);
    });
  },
);

describe('slm run --out → slm replay', { timeout: cliTimeout(2) }, () => {
  it('a recorded headless run on the Node backend verifies in memory', async () => {
    const root = join(dir, 'project');
    await mkdir(join(root, 'src'), { recursive: true });
    await writeFile(join(root, 'src/math.js'), MATH);
    // Read and edit only: done's final test run would depend on the backend (see replay.test.ts for that case).
    const outputs = FIX_OUTPUTS.slice(0, 2);
    await writeFile(join(dir, 'fix.json'), JSON.stringify(outputs));
    const out = join(dir, 'run.session.json');
    const run = await runCli([
      'run',
      '--model',
      `scripted:${join(dir, 'fix.json')}`,
      '--task',
      'Make add add.',
      '--root',
      root,
      '--out',
      out,
      '--max-steps',
      '2',
    ]);
    expect(run.stdout).toBe('reached the step limit (2) without the final done JSON (2 steps)\n');
    const recorded = JSON.parse(await readFile(out, 'utf8')) as Session;
    expect(recorded).toMatchObject({
      v: 1,
      task: 'Make add add.',
      workspace: { files: { 'src/math.js': MATH } },
      settings: { agent: { maxSteps: 2 } },
    });
    expect(recorded.steps.map((s) => s.raw)).toEqual(outputs);

    const replay = await runCli(['replay', out]);
    expect(replay.stdout).toMatch(/^✓ reproduced: 2 steps on the memory backend/);
    expect(replay.code).toBe(0);
  });
});
