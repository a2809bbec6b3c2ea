/**
 * Patterns are expanded by the runner, not by a shell — so they must expand exactly as bash
 * expands them. Each pattern runs as `printf '%s\n' PATTERN` through ws_shell on the Node
 * backend and through real bash (globskipdots as in bash 5.2) in the same directory, in the
 * locale commands run in (C.UTF-8, host-sandbox.ts: so `?` is one character of `é`, not one
 * byte); the two outputs must be equal.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../src/engine/engine.ts';
import { CODING_TOOLS } from '../../src/engine/tools/index.ts';
import { NodeWorkspace } from '../../src/workspace/node/node-workspace.ts';
import { useNodeWasm } from '../support/node-wasm.ts';

const FILES = [
  'a.js',
  'b.ts',
  'ab.js',
  '.hidden',
  '.h.js',
  'B.JS',
  'sp ace.txt',
  '[x].txt',
  'q?.md',
  'star*.md',
  'src/x.js',
  'src/y.ts',
  'src/.z.js',
  'src/deep/w.js',
  'dir/sub/c.js',
  'dir/d.txt',
  'é.txt',
  'd[/x1',
  'd[/sub/y',
  'a[/b]x',
  'q[x/f',
  'x[/y]/zz',
];

let dir: string;
let engine: Engine;

beforeAll(async () => {
  useNodeWasm();
  dir = mkdtempSync(join(tmpdir(), 'slm-glob-'));
  for (const f of FILES) {
    mkdirSync(join(dir, f, '..'), { recursive: true });
    writeFileSync(join(dir, f), '');
  }
  mkdirSync(join(dir, 'empty'));
  engine = new Engine({
    workspace: await NodeWorkspace.open(dir),
    tools: CODING_TOOLS,
    settings: { loop_guard: false },
  });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What bash prints for the same command line in the same directory. */
function bash(line: string): string {
  try {
    return execFileSync('/bin/bash', ['--norc', '--noprofile', '-c', line], {
      cwd: dir,
      env: { PATH: '/usr/bin:/bin', LC_ALL: 'C.UTF-8' },
      encoding: 'utf8',
    });
  } catch (e) {
    return `bash failed: ${(e as Error).message}`;
  }
}

async function ours(line: string): Promise<string | null> {
  const r = await engine.call('ws_shell', { command: line });
  // Refused by the policy, or a bracket the runner will not expand (its own test below): nothing ran, nothing to compare.
  if (!r.ok)
    return r.notes.some((n) => n.detail === 'refuse') ||
      r.text.includes(' has a collating symbol or equivalence class ')
      ? null
      : `failed: ${r.text}`;
  return r.text.replace(/\n\[exit code 0\]$/, '\n').replace(/^\(command produced no output\)\n?/, '');
}

const ROWS = [
  '*',
  '*.js',
  '*.JS',
  '?.js',
  '[ab].js',
  '[!a]*.js',
  '[^a]*',
  '[a-b]*',
  '.*js',
  '.h*',
  'src/*',
  'src/*.js',
  'src/.*.js',
  '*/*.js',
  '*/*/*.js',
  'dir/*/',
  '*/',
  's*/d*/*',
  "'*'.md",
  '"q?".md',
  'star\\*.md',
  '\\[x].txt',
  '[[]x].txt',
  '[x].txt',
  'nomatch*',
  'src/nomatch*',
  'sp*',
  '*ace*',
  '[[:upper:]]*',
  '[[:alpha:]].js',
  '?',
  '??.js',
  'é*',
  './*.ts',
  'src/./*.ts',
  'a*b',
  '*[',
  '[',
  'empty/*',
  'dir//*',
  '?.*',
  '?.txt',
  '*dir//',
  '*//*',
  '*//',
  'd*///',
  'dir//*/',
  's*//deep//*',
  '*//./*',
  'src/./*//',
  '*/.//*.js',
  'd[//x*',
  'a[//b]*',
  'q[x//f',
  'd[///',
  'd[//sub//',
  'd[//s*//',
  'x[//y]/z*',
  'x[/y]//z*',
  'a[///',
];

describe('patterns expand as bash expands them', () => {
  it.each(ROWS)('%s', async (pattern) => {
    const line = `printf '%s\\n' ${pattern}`;
    const got = await ours(line);
    if (got === null) return; // nothing ran, nothing to compare
    expect(got).toBe(bash(line));
  });

  it('for generated patterns', async () => {
    const piece = fc.constantFrom(
      '*',
      '?',
      'a',
      'b',
      '.',
      'js',
      's',
      'src/',
      'dir/',
      '[ab]',
      '[!a]',
      "'*'",
      '\\?',
      'x',
      '/',
      'e',
      '//',
      '[',
      ']',
      'd[',
      '[.',
    );
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { minLength: 1, maxLength: 5 }), async (parts) => {
        const pattern = parts.join('');
        const line = `printf '%s\\n' ${pattern}`;
        const got = await ours(line);
        if (got !== null) expect(got).toBe(bash(line));
      }),
      { numRuns: 150 },
    );
  });

  it('a bracket with a collating symbol or an equivalence class is not expanded, and says so', async () => {
    for (const pattern of ['d[[.[!.]', '[[=a=]].js', '*[[.a.]]']) {
      const r = await engine.call('ws_shell', { command: `printf '%s\\n' ${pattern}` });
      expect(r.ok).toBe(false);
      expect(r.text).toContain(
        `the pattern ${JSON.stringify(pattern)} has a collating symbol or equivalence class ([. or [= inside brackets), which ws_shell does not expand; list the characters in the brackets`,
      );
    }
    expect((await engine.call('ws_shell', { command: "printf '%s\\n' [.]js [[:alpha:]].js" })).ok).toBe(true);
  });

  it('a command is judged again as it expanded: a pattern that becomes an output operand is refused', async () => {
    const r = await engine.call('ws_shell', { command: 'uniq *.js' });
    expect(r.ok).toBe(false);
    expect(r.text).toMatch(
      /^ws_shell did not run "uniq \*\.js": its patterns expand to "uniq a\.js ab\.js", and that command refused \(tier never\): uniq writes its output to "ab\.js"/,
    );
    expect(r.notes).toContainEqual(expect.objectContaining({ kind: 'refusal' }));
  });

  // Judged again as it expanded, a word the command wrote keeps its reading (xargs's command is
  // still `cat`), while a pattern's match never becomes a program name.
  it.each([
    { line: 'ls zz* | xargs --repl=Q cat Q', ok: true, says: /^one\ntwo\n\[exit code 0\]$/ },
    { line: 'ls zz* | xargs -I Q cat Q', ok: true, says: /^one\ntwo\n\[exit code 0\]$/ },
    { line: 'ls zz* | xargs cat', ok: true, says: /^one\ntwo\n\[exit code 0\]$/ },
    {
      line: 'ls zz* | xargs --max-procs=2 cat',
      ok: false,
      says: /xargs --max-procs=2 is not an option ws_shell carries out \(it does -0, -d, -n, -L, -I and -r\)/,
    },
  ])('$line after expansion: ok $ok', async ({ line, ok, says }) => {
    writeFileSync(join(dir, 'zz1.txt'), 'one\n');
    writeFileSync(join(dir, 'zz2.txt'), 'two\n');
    try {
      const r = await engine.call('ws_shell', { command: line });
      expect(r.text).not.toMatch(/is not a read-only tool/);
      expect(r.text).toMatch(says);
      expect(r.ok).toBe(ok);
    } finally {
      rmSync(join(dir, 'zz1.txt'));
      rmSync(join(dir, 'zz2.txt'));
    }
  });
});
