/**
 * Round-5 review findings, kept as regression tests through the real CLI, judged by effects.
 *
 * Glob patterns from the model are matched in linear time: picomatch's backtracking expression
 * for `*a*a*…*b` against a long name ran for minutes synchronously, so `slm batch` (and the tab's
 * engine, and a replayed session) never answered and no timeout could end it. The same held for
 * a Jest path filter (`npx jest '(a|aa)+$'`) in the memory workspace, which tried the model's
 * regex in the workspace's own thread against the spec files' names.
 *
 * A `.git` a command makes is removed however many entries it hides behind: a script that made
 * 50,001 files and then `zz/.git/config` with core.fsmonitor left that repository in the
 * project (the walk after the command stopped at 50,000 entries), and a person's next
 * `git status` there ran the planted command on the host.
 *
 * A tampered record that names the naive harness is replayed in bounded time: its ws_grep tried
 * the record's pattern as a JavaScript RegExp, so `(a|aa)+$` beside a long line kept `slm replay`
 * (and a link opened in the tab) busy past the whole replay's deadline, which cannot interrupt a
 * synchronous match.
 *
 * A reply that opens tens of thousands of brackets (`{"tool":"ws_read","args":[[[[…`, under the
 * record's 100,000-character cap) is refused as a call: it was repaired into arguments that deep,
 * whose first recursive reader overflowed the stack, so `slm parse` lost every later line and
 * `slm replay` (and a run) ended as an internal error.
 */
import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { lstat, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, runCli, tempRoot } from '../cli/cli-process.ts';
import { probeHostSandbox } from '../../src/workspace/node/host-sandbox.ts';
import { GIT_WALK_ENTRIES } from '../../src/workspace/node/git-entries.ts';

const probed = await probeHostSandbox();
const sandboxed = 'kind' in probed;
if (!sandboxed) console.log(`review-round5: the nested .git case skipped: bubblewrap cannot run here (${probed.why})`);

afterAll(cleanup);

/** Long enough that the backtracking matcher would not finish in any test's lifetime. */
const KILL_AFTER_MS = 60_000;

describe('glob patterns are matched in bounded time', () => {
  it('ws_glob and ws_grep glob= answer a many-star pattern beside a long name', async () => {
    const root = await tempRoot();
    await writeFile(join(root, 'a'.repeat(120)), 'needle\n');
    const stars = '*a'.repeat(12);
    const lines = [
      { root, tool: 'ws_glob', args: { pattern: `${stars}*b` } },
      { root, tool: 'ws_glob', args: { pattern: `${stars}*` } },
      { root, tool: 'ws_grep', args: { pattern: 'needle', glob: `${stars}*b` } },
      { root, tool: 'ws_grep', args: { pattern: 'needle', glob: `**/${stars}*` } },
    ];
    const started = Date.now();
    const r = await runCli(['batch'], lines.map((l) => JSON.stringify(l)).join('\n') + '\n', undefined, KILL_AFTER_MS);
    expect(r.code, `slm batch was killed after ${Date.now() - started} ms: ${r.stderr}`).toBe(0);
    const out = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { ok: boolean; text: string });
    expect(out.map((o) => o.text.split('\n')[0])).toEqual([
      expect.stringMatching(/^No files match/),
      '1 match for "' + `${stars}*` + '" in the project:',
      expect.stringMatching(/^No matches for "needle"/),
      expect.stringMatching(/^1 hit in 1 file for "needle"/),
    ]);
  }, 120_000);
});

const REPO = resolve(import.meta.dirname, '../..');

/** Runs `code` (TypeScript, in the repository) in a child tsx; SIGTERM after `ms`. */
function tsxWithin(code: string, ms: number): Promise<{ code: number | null; stdout: string }> {
  const child = spawn(join(REPO, 'node_modules/.bin/tsx'), ['-e', code], {
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  const timer = setTimeout(() => child.kill('SIGTERM'), ms);
  return new Promise((done) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout });
    }),
  );
}

describe('a Jest path filter in the memory workspace is matched in bounded time', () => {
  it("npx jest '(a|aa)+$' beside a long spec name answers at once", async () => {
    // The memory workspace's own planning of `npx jest PATTERN`, as ws_shell reaches it.
    const code = `(async () => {
      const { InMemoryFs } = await import('just-bash');
      const { planSpecs } = await import('./src/workspace/memory/test-runner-args.ts');
      const fs = new InMemoryFs();
      await fs.mkdir('/ws', { recursive: true });
      await fs.writeFile('/ws/' + 'a'.repeat(60) + '!.test.js', 'x');
      await fs.writeFile('/ws/aa.test.js', 'x');
      for (const f of ['(a|aa)+$', 'aa\\.test']) console.log(JSON.stringify(await planSpecs(fs, '/ws', '/ws', 'jest', [f])));
    })()`;
    const r = await tsxWithin(code, 60_000);
    expect(r.code).toBe(0);
    const [none, one] = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { text?: string; files?: string[] });
    expect(none?.text).toMatch(/^No tests found in \/ws: .* matching \(a\|aa\)\+\$/);
    expect(one).toMatchObject({ mode: 'jest', files: ['/ws/aa.test.js'] });
  }, 90_000);
});

describe.skipIf(!sandboxed)('a .git a command makes is removed however many entries it hides behind', () => {
  it('a nested repository made after more than the walk limit of files is gone, and said', async () => {
    const root = await tempRoot();
    execFileSync('git', ['init', '-q'], { cwd: root });
    const script = [
      'import os',
      `for i in range(${GIT_WALK_ENTRIES + 1}):`,
      "    open('f%06d' % i, 'w').close()",
      "os.makedirs('zz/.git', exist_ok=True)",
      "open('zz/.git/config', 'w').write('[core]\\n\\tfsmonitor = touch /tmp/never\\n')",
    ].join('\n');
    const lines = [
      { root, tool: 'ws_write', args: { path: 'mk.py', content: `${script}\n` } },
      { root, tool: 'ws_shell', args: { command: 'python3 mk.py', timeout_ms: 120_000 } },
    ];
    const r = await runCli(['batch'], lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    expect(r.code).toBe(0);
    const ran = JSON.parse(r.stdout.trim().split('\n')[1]!) as { ok: boolean; notes: { text: string }[] };
    expect(ran.ok).toBe(true);
    expect(ran.notes.map((n) => n.text).join('\n')).toMatch(/zz\/\.git/);
    await expect(lstat(join(root, 'zz/.git'))).rejects.toThrow(/ENOENT/);
  }, 240_000);
});

describe("a tampered record's naive-harness search is bounded", () => {
  it.each([
    ['ws_grep', { pattern: '(a|aa)+$' }, { 'f.txt': `${'a'.repeat(80)}!\n` }],
    ['ws_glob', { pattern: `${'*a'.repeat(12)}*b` }, { ['a'.repeat(120)]: 'x' }],
  ])(
    'slm replay answers a record whose %s step backtracks',
    async (tool, args, files) => {
      const base = JSON.parse(await readFile(join(REPO, 'examples/drifted-edit.session.json'), 'utf8')) as Record<
        string,
        unknown
      >;
      const raw = JSON.stringify({ thought: 'x', tool, args });
      const session = {
        ...base,
        harness: 'naive',
        workspace: { files },
        steps: [
          { raw, call: { tool, args }, resultHash: '71e01d00c14f', workspaceHash: 'bfae8a23ecd3', resultText: 'x' },
        ],
      };
      const file = join(await tempRoot(), 't.session.json');
      await writeFile(file, JSON.stringify(session));
      const r = await runCli(['replay', file], '', undefined, KILL_AFTER_MS);
      // Exit 1: the step was replayed and diverged from the altered record (not killed: null or 143).
      expect(r.code, r.stderr).toBe(1);
      expect(r.stdout + r.stderr).toMatch(/diverged at step 1/);
    },
    120_000,
  );
});

describe('arguments nested past the bound are refused, not a crash', () => {
  const deep = (open: string) =>
    `{"tool":"ws_write","args":{"path":"a.txt","content":${open.repeat(90_000 / open.length)}`;

  it('slm parse answers each deep reply and the line after it', async () => {
    const lines = [deep('['), deep('{"a":'), '{"tool":"ws_read","args":{"path":"a.txt"}}'];
    const r = await runCli(
      ['parse'],
      lines.map((raw) => JSON.stringify({ raw })).join('\n') + '\n',
      undefined,
      KILL_AFTER_MS,
    );
    expect(r.code, r.stderr).toBe(0);
    const out = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { call: unknown; error: string | null });
    expect(out[0]).toEqual({ call: null, format: null, error: expect.stringMatching(/nest more than 64 levels deep/) });
    expect(out[2]).toMatchObject({ call: { tool: 'ws_read', args: { path: 'a.txt' } } });
  }, 120_000);

  it('slm replay of a record whose step is that reply diverges instead of failing', async () => {
    const base = JSON.parse(await readFile(join(REPO, 'examples/drifted-edit.session.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    const session = {
      ...base,
      steps: [{ raw: deep('['), resultHash: '71e01d00c14f', workspaceHash: 'bfae8a23ecd3', resultText: 'x' }],
    };
    const file = join(await tempRoot(), 'deep.session.json');
    await writeFile(file, JSON.stringify(session));
    const r = await runCli(['replay', file], '', undefined, KILL_AFTER_MS);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout + r.stderr).toMatch(/nest more than 64 levels deep/);
  }, 120_000);
});
