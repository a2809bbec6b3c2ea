import { describe, expect, it } from 'vitest';
import { expectResult, fileEngine, type ResultRow, type Seed } from '../../../tests/support/file-tools.ts';
import { GREP_CAP } from './ws_grep.ts';

const SEED: Seed = {
  'src/app.ts': 'import { util } from "./util";\nexport function main() {\n  return util(1);\n}\n',
  'src/util.ts': 'export function util(n: number) {\n  return n + 1; // TODO tidy\n}\n',
  'src/style.css': '.main { color: red }\n',
  'README.md': '# Demo\nCall main() to start.\n',
  'crlf.txt': 'ends here\r\nnext\r\n',
  'logo.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x6d, 0x61, 0x69, 0x6e]),
  'node_modules/dep/index.js': 'function main() {}\n',
  '.git/HEAD': 'ref: refs/heads/main\n',
  'link-in': { link: 'src' },
  'link-out': { link: '/outside' },
};

const rows: ResultRow[] = [
  {
    name: 'hits are file:line: text, in tree order, with a count',
    args: { pattern: 'function \\w+\\(' },
    ok: true,
    expected:
      '2 hits in 2 files for "function \\\\w+\\\\(" (5 files searched in the project, case-sensitive):\n' +
      'src/app.ts:2: export function main() {\nsrc/util.ts:1: export function util(n: number) {\nSkipped: 1 binary file.',
  },
  {
    name: 'a pattern that does not compile is searched literally, and the result says so',
    args: { pattern: 'util(1' },
    ok: true,
    expected: [
      '["util(1" is not a valid RE2 regular expression (error parsing regexp: missing closing ): `util(1`), so it was searched as a literal string]',
      'src/app.ts:3:   return util(1);',
    ],
  },
  {
    name: 'case_insensitive ignores case',
    args: { pattern: 'DEMO', case_insensitive: true },
    ok: true,
    expected: ['1 hit in 1 file for "DEMO" (5 files searched in the project, ignoring case):', 'README.md:1: # Demo'],
  },
  {
    name: 'matching is case-sensitive by default',
    args: { pattern: 'DEMO' },
    ok: true,
    expected: ['No matches for "DEMO"', 'case_insensitive: true'],
  },
  {
    name: 'path= narrows to a directory',
    args: { pattern: 'main', path: 'src' },
    ok: true,
    expected: [
      '2 hits in 2 files for "main" (3 files searched in src/, case-sensitive):',
      'src/app.ts:2:',
      'src/style.css:1:',
    ],
    excludes: ['README'],
  },
  {
    name: 'path= may name one file',
    args: { pattern: 'main', path: 'README.md' },
    ok: true,
    expected:
      '1 hit in 1 file for "main" (1 file searched in README.md, case-sensitive):\nREADME.md:2: Call main() to start.',
  },
  {
    name: 'glob= without a slash matches file names at any depth',
    args: { pattern: 'main', glob: '*.ts' },
    ok: true,
    expected: [
      '1 hit in 1 file for "main" (2 files searched in the project, glob "*.ts", case-sensitive):',
      'src/app.ts:2:',
    ],
  },
  {
    name: 'glob= with a slash matches root-relative paths',
    args: { pattern: 'return', glob: 'src/**/util.ts' },
    ok: true,
    expected: ['1 hit in 1 file', 'src/util.ts:2:   return n + 1; // TODO tidy'],
  },
  {
    name: 'line anchors work on CRLF files',
    args: { pattern: 'here$' },
    ok: true,
    expected: ['crlf.txt:1: ends here'],
  },
  {
    name: 'node_modules and .git are not searched',
    args: { pattern: 'main', glob: '*.js' },
    ok: true,
    expected: ['No matches for "main"', 'node_modules/ and .git/ are not searched'],
  },
  {
    name: 'a glob that names node_modules searches it',
    args: { pattern: 'main', glob: 'node_modules/**/*.js' },
    ok: true,
    expected: ['node_modules/dep/index.js:1: function main() {}'],
  },
  {
    name: 'path= inside .git searches there',
    args: { pattern: 'main', path: '.git' },
    ok: true,
    expected: ['.git/HEAD:1: ref: refs/heads/main'],
  },
  {
    name: 'symlinks are not followed: each file is found once, by its real path',
    args: { pattern: 'TODO' },
    ok: true,
    expected:
      '1 hit in 1 file for "TODO" (5 files searched in the project, case-sensitive):\nsrc/util.ts:2:   return n + 1; // TODO tidy\nSkipped: 1 binary file.',
  },
  {
    name: 'no match names what was searched',
    args: { pattern: 'zzz', path: 'src', glob: '*.ts' },
    ok: true,
    expected:
      'No matches for "zzz" (2 files searched in src/, glob "*.ts", case-sensitive; node_modules/ and .git/ are not searched). Try a shorter or looser pattern, or case_insensitive: true, or without glob=/path=; to find files by name use ws_glob.',
  },
  {
    name: 'accepts query and include as aliases',
    args: { query: 'main', include: '*.md' },
    ok: true,
    expected: ['README.md:2:'],
  },
  {
    name: 'an empty pattern is refused with an example',
    args: { pattern: '' },
    ok: false,
    expected: ['ws_grep needs a non-empty pattern'],
  },
  {
    name: 'path= is jailed',
    args: { pattern: 'x', path: 'link-out' },
    ok: false,
    expected: ['points outside the project root'],
  },
  {
    name: 'a missing path= gets the missing-path pointers',
    args: { pattern: 'x', path: 'srcs' },
    ok: false,
    expected: ['srcs does not exist.', 'Similarly named: src/.'],
  },
];

describe('ws_grep', () => {
  it.each(rows.map((r) => [r.name, r] as const))('%s', async (_n, row) => {
    const { engine, ws } = await fileEngine(SEED);
    await ws.fs.mkdir('/outside', { recursive: true });
    await ws.fs.writeFile('/outside/secret.txt', 'TODO main zzz\n');
    const r = await engine.call('ws_grep', row.args);
    expectResult(r, row);
    expect(r.text).not.toContain('outside/secret');
  });

  it(`shows at most ${GREP_CAP} hits and announces the cap`, async () => {
    const { engine } = await fileEngine({
      'many.txt': Array.from({ length: 120 }, (_, i) => `hit ${i + 1}`).join('\n'),
    });
    const r = await engine.call('ws_grep', { pattern: '^hit' });
    const lines = r.text.split('\n');
    expect(lines[0]).toBe('120 hits in 1 file for "^hit" (1 file searched in the project, case-sensitive):');
    expect(lines.filter((l) => l.startsWith('many.txt:'))).toHaveLength(GREP_CAP);
    expect(lines.at(-1)).toBe(
      `[showing the first ${GREP_CAP} of 120 hits — at most ${GREP_CAP} are shown; narrow with a more specific pattern, path= or glob=]`,
    );
    expect(r.notes).toContainEqual({ kind: 'cap', text: `grep cap ${GREP_CAP} reached (120 hits)`, detail: '120' });
  });

  it('cuts a long line around the match', async () => {
    const { engine } = await fileEngine({ 'min.js': `${'a'.repeat(5000)}NEEDLE${'b'.repeat(5000)}\n` });
    const r = await engine.call('ws_grep', { pattern: 'NEEDLE' });
    const hit = r.text.split('\n')[1]!;
    expect(hit).toMatch(/^min\.js:1: …a+NEEDLEb+…$/);
    expect(hit.length).toBeLessThan(260);
  });

  it('runs a catastrophic-backtracking pattern in linear time', async () => {
    const { engine } = await fileEngine({ 'a.txt': `${'a'.repeat(50_000)}b\n` });
    const t0 = performance.now();
    const r = await engine.call('ws_grep', { pattern: '(a+)+$' });
    expect(r.ok).toBe(true);
    expect(performance.now() - t0).toBeLessThan(3000);
  });

  it('notes a literal fallback for the inspector', async () => {
    const { engine } = await fileEngine({ 'a.txt': 'f(x\n' });
    const r = await engine.call('ws_grep', { pattern: 'f(x' });
    expect(r.notes.map((n) => n.kind)).toEqual(['literal-fallback']);
    expect(r.text).toContain('a.txt:1: f(x');
  });
});
