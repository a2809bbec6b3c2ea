import { describe, expect, it } from 'vitest';
import { expectResult, fileEngine, type ResultRow, type Seed } from '../../../tests/support/file-tools.ts';
import { GLOB_CAP } from './ws_glob.ts';

const SEED: Seed = {
  'README.md': '#',
  'src/index.ts': 'x',
  'src/index.test.ts': 'x',
  'src/lib/util.ts': 'x',
  'src/lib/util.test.ts': 'x',
  'src/app.js': 'x',
  'node_modules/dep/index.js': 'x',
  '.git/config': 'x',
  '.github/workflows/ci.yml': 'x',
  'link-in': { link: 'src' },
  'link-out': { link: '/outside' },
};

const rows: ResultRow[] = [
  {
    name: '** spans directories',
    args: { pattern: '**/*.ts' },
    ok: true,
    expected:
      '4 matches for "**/*.ts" in the project:\nsrc/index.test.ts\nsrc/index.ts\nsrc/lib/util.test.ts\nsrc/lib/util.ts',
  },
  {
    name: 'a directory prefix narrows',
    args: { pattern: 'src/**/*.test.ts' },
    ok: true,
    expected: '2 matches for "src/**/*.test.ts" in the project:\nsrc/index.test.ts\nsrc/lib/util.test.ts',
  },
  {
    name: 'a top-level pattern matches at the top level',
    args: { pattern: '*.md' },
    ok: true,
    expected: '1 match for "*.md" in the project:\nREADME.md',
  },
  {
    name: 'a top-level pattern with no top-level match is widened, and says so',
    args: { pattern: '*.js' },
    ok: true,
    expected: [
      '[nothing matches "*.js" at the top level of the project; these are the matches of "**/*.js" at any depth]',
      '1 match for "**/*.js"',
      'src/app.js',
    ],
    excludes: ['node_modules'],
  },
  {
    name: 'braces',
    args: { pattern: 'src/*.{ts,js}' },
    ok: true,
    expected: '3 matches for "src/*.{ts,js}" in the project:\nsrc/app.js\nsrc/index.test.ts\nsrc/index.ts',
  },
  {
    name: 'directories carry a trailing /',
    args: { pattern: 'src/*' },
    ok: true,
    expected: ['src/lib/', 'src/app.js'],
  },
  {
    name: 'node_modules is skipped by default',
    args: { pattern: '**/index.js' },
    ok: true,
    expected: ['No files match "**/index.js"', 'node_modules/ and .git/ are skipped unless the pattern names them'],
  },
  {
    name: 'node_modules is searched when the pattern names it',
    args: { pattern: 'node_modules/**/*.js' },
    ok: true,
    expected: '1 match for "node_modules/**/*.js" in the project:\nnode_modules/dep/index.js',
  },
  {
    name: '.git is skipped by default',
    args: { pattern: '**/config' },
    ok: true,
    expected: ['No files match "**/config"'],
  },
  {
    name: '.git is searched when the pattern names it',
    args: { pattern: '.git/*' },
    ok: true,
    expected: '1 match for ".git/*" in the project:\n.git/config',
  },
  {
    name: 'dot directories match',
    args: { pattern: '**/*.yml' },
    ok: true,
    expected: '1 match for "**/*.yml" in the project:\n.github/workflows/ci.yml',
  },
  {
    name: 'path= limits the search; patterns are relative to it',
    args: { pattern: '*.ts', path: 'src/lib' },
    ok: true,
    expected: '2 matches for "*.ts" in src/lib/:\nsrc/lib/util.test.ts\nsrc/lib/util.ts',
  },
  {
    name: 'path= also takes a root-relative pattern',
    args: { pattern: 'src/lib/*.test.ts', path: 'src/lib' },
    ok: true,
    expected: '1 match for "src/lib/*.test.ts" in src/lib/:\nsrc/lib/util.test.ts',
  },
  {
    name: 'a leading ./ is dropped',
    args: { pattern: './src/*.js' },
    ok: true,
    expected: '1 match for "src/*.js" in the project:\nsrc/app.js',
  },
  {
    name: 'a symlinked directory is listed but never entered',
    args: { pattern: 'link-*' },
    ok: true,
    expected: '2 matches for "link-*" in the project:\nlink-in@ -> src\nlink-out@ -> /outside',
  },
  {
    name: 'nothing under a symlink is matched, only the link itself',
    args: { pattern: 'link-in/**' },
    ok: true,
    expected: '1 match for "link-in/**" in the project:\nlink-in@ -> src',
  },
  {
    name: 'no match is an explicit message',
    args: { pattern: '**/*.rs' },
    ok: true,
    expected: ['No files match "**/*.rs" in the project (', 'entries searched', 'ws_list'],
  },
  {
    name: 'an absolute pattern is refused with the fix',
    args: { pattern: '/src/*.ts' },
    ok: false,
    expected: 'ws_glob patterns are relative to the project root: write "src/*.ts", not "/src/*.ts".',
  },
  {
    name: 'an empty pattern is refused with an example',
    args: { pattern: ' ' },
    ok: false,
    expected: ['ws_glob needs a pattern'],
  },
  {
    name: 'path= must be a directory',
    args: { pattern: '*', path: 'README.md' },
    ok: false,
    expected: ['path= must be a directory, and README.md is a file.'],
  },
  {
    name: 'a missing path= gets the missing-path pointers',
    args: { pattern: '*', path: 'lib' },
    ok: false,
    expected: ['lib does not exist.', 'ws_list'],
  },
  {
    name: 'path= is jailed',
    args: { pattern: '*', path: 'link-out' },
    ok: false,
    expected: ['points outside the project root'],
  },
];

describe('ws_glob', () => {
  it.each(rows.map((r) => [r.name, r] as const))('%s', async (_n, row) => {
    const { engine } = await fileEngine(SEED);
    const r = await engine.call('ws_glob', row.args);
    expectResult(r, row);
  });

  it(`caps the list at ${GLOB_CAP} and announces the cap`, async () => {
    const seed: Seed = {};
    for (let i = 0; i < 250; i++) seed[`gen/f${String(i).padStart(3, '0')}.txt`] = 'x';
    const { engine } = await fileEngine(seed);
    const r = await engine.call('ws_glob', { pattern: 'gen/*.txt' });
    const lines = r.text.split('\n');
    expect(lines[0]).toBe(
      `250 matches for "gen/*.txt" in the project; showing the first ${GLOB_CAP} (at most ${GLOB_CAP} are listed — narrow the pattern or pass path=):`,
    );
    expect(lines.length).toBe(GLOB_CAP + 1);
    expect(lines.at(-1)).toBe('gen/f199.txt');
    expect(r.notes).toContainEqual({ kind: 'cap', text: `glob cap ${GLOB_CAP} reached (250 matches)`, detail: '250' });
  });
});
