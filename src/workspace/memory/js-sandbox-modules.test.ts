/** The sandbox's module graph and `node` argument planning: pure reads of the in-memory files. */
import { describe, expect, it } from 'vitest';
import { fsWith } from '../../../tests/support/memory-fs.ts';
import { ModuleGraph, type SandboxModule } from './js-sandbox-modules.ts';
import { resolveSpecifier } from './specifiers.ts';
import { findTestFiles, planNode } from './js-sandbox-args.ts';

async function graph(files: Readonly<Record<string, string>>, entry: string): Promise<Record<string, SandboxModule>> {
  return new ModuleGraph(fsWith(files), '/ws').collect([`/ws/${entry}`]);
}

/** Each dependency as `specifier as written → target`. */
function deps(m: SandboxModule | undefined): string[] {
  return (m?.deps ?? []).map((d) => `${m!.source.slice(d.start, d.end)} → ${d.target}${d.dynamic ? ' (dynamic)' : ''}`);
}

describe('ModuleGraph', () => {
  it('finds static, re-export and literal dynamic imports, with their exact offsets', async () => {
    const g = await graph(
      {
        'a.mjs':
          "import { b } from './b.mjs';\nexport * from \"./c.mjs\";\nexport { d } from './d.mjs';\nconst e = await import(`./e.mjs`);\nconst f = await import(name);\nimport test from 'node:test';\n",
        'b.mjs': 'export const b = 1;',
        'c.mjs': '',
        'd.mjs': 'export const d = 1;',
        'e.mjs': '',
      },
      'a.mjs',
    );
    expect(deps(g['/ws/a.mjs'])).toEqual([
      "'./b.mjs' → /ws/b.mjs",
      '"./c.mjs" → /ws/c.mjs',
      "'./d.mjs' → /ws/d.mjs",
      '`./e.mjs` → /ws/e.mjs (dynamic)',
      "'node:test' → node:test",
    ]);
    for (const id of ['/ws/b.mjs', '/ws/c.mjs', '/ws/d.mjs', '/ws/e.mjs', 'node:test', 'node:assert', 'node:util'])
      expect(g[id]?.kind).toBe('esm');
  });

  it.each<{ what: string; files: Record<string, string>; entry: string; kind: string }>([
    { what: '.mjs is a module', files: { 'x.mjs': 'const a = 1;' }, entry: 'x.mjs', kind: 'esm' },
    { what: '.cjs is CommonJS', files: { 'x.cjs': 'import x from "y";' }, entry: 'x.cjs', kind: 'cjs' },
    {
      what: '.js under "type": "module" is a module',
      files: { 'package.json': '{"type":"module"}', 'src/x.js': 'const a = 1;' },
      entry: 'src/x.js',
      kind: 'esm',
    },
    {
      what: '.js under "type": "commonjs" is CommonJS',
      files: { 'package.json': '{"type":"commonjs"}', 'x.js': 'export const a = 1;' },
      entry: 'x.js',
      kind: 'cjs',
    },
    {
      what: '.js without a type is a module when it has ES syntax',
      files: { 'x.js': 'export const a = 1;' },
      entry: 'x.js',
      kind: 'esm',
    },
    {
      what: '.js in a package whose package.json names no type is a module when it has ES syntax (as in Node 22)',
      files: { 'package.json': '{"name":"p"}', 'src/x.js': 'export const a = 1;' },
      entry: 'src/x.js',
      kind: 'esm',
    },
    {
      what: '.js without a type or ES syntax is CommonJS',
      files: { 'x.js': 'module.exports = 1;' },
      entry: 'x.js',
      kind: 'cjs',
    },
    { what: 'valid .json is JSON', files: { 'x.json': '{"a": 1}' }, entry: 'x.json', kind: 'json' },
    {
      what: 'broken .json is an error with the parse message',
      files: { 'x.json': '{a: 1}' },
      entry: 'x.json',
      kind: 'error',
    },
  ])('$what', async ({ files, entry, kind }) => {
    expect((await graph(files, entry))[`/ws/${entry}`]?.kind).toBe(kind);
  });

  it('reads CommonJS requires and the export names an ES importer may use', async () => {
    const g = await graph(
      {
        'x.cjs':
          "const y = require('./y');\nconst j = require('./d.json');\nconst p = require('path');\nconst z = require(dynamicName);\nexports.one = 1;\nmodule.exports.two = 2;\nmodule.exports = { three, four: 4, 'not-an-id': 5, [computed]: 6 };\n",
        'y.js': 'module.exports = {};',
        'd.json': '{}',
      },
      'x.cjs',
    );
    const x = g['/ws/x.cjs']!;
    expect(x.requires).toEqual({ './y': '/ws/y.js', './d.json': '/ws/d.json', path: 'node:path' });
    expect([...x.names].sort()).toEqual(['four', 'one', 'three', 'two']);
  });

  it.each([
    {
      what: 'a package',
      spec: 'lodash',
      code: 'ERR_MODULE_NOT_FOUND',
      message: /^Cannot find package 'lodash' imported from \/ws\/a\.mjs: the offline sandbox loads only/,
    },
    {
      what: 'a URL',
      spec: 'https://example.com/x.js',
      code: 'ERR_MODULE_NOT_FOUND',
      message: /^Cannot find the URL 'https:\/\/example\.com\/x\.js'/,
    },
    {
      what: 'a built-in the sandbox lacks',
      spec: 'node:child_process',
      code: 'ERR_UNKNOWN_BUILTIN_MODULE',
      message: /^node:child_process is not available in the offline sandbox/,
    },
    {
      what: 'a bare built-in name',
      spec: 'fs',
      code: 'ERR_UNKNOWN_BUILTIN_MODULE',
      message: /^node:fs is not available/,
    },
    {
      what: "the runtime's own globals module",
      spec: 'node:internal/globals',
      code: 'ERR_UNKNOWN_BUILTIN_MODULE',
      message: /^node:internal\/globals is not available/,
    },
    {
      what: 'a path outside the workspace',
      spec: '../etc/passwd',
      code: 'ERR_MODULE_NOT_FOUND',
      message:
        /^Cannot load '\.\.\/etc\/passwd' from \/ws\/a\.mjs: it resolves outside the workspace \(\/etc\/passwd\)$/,
    },
    {
      what: 'a directory without index.js, with what was tried',
      spec: './lib',
      code: 'ERR_MODULE_NOT_FOUND',
      message:
        /^Cannot find module '\/ws\/lib' imported from \/ws\/a\.mjs \(tried '\/ws\/lib', '\/ws\/lib\.js', '\/ws\/lib\.mjs', '\/ws\/lib\.cjs', '\/ws\/lib\.json', '\/ws\/lib\/index\.js'\)$/,
    },
  ])("an import of $what becomes an error module with Node's code", async ({ spec, code, message }) => {
    const g = await graph({ 'a.mjs': `import x from '${spec}';`, 'lib/x.js': '' }, 'a.mjs');
    const target = g[g['/ws/a.mjs']!.deps[0]!.target]!;
    expect(target.kind).toBe('error');
    expect(target.error?.code).toBe(code);
    expect(target.error?.message).toMatch(message);
  });

  // Relative specifiers resolve as bundlers and Jest resolve them, for import and require alike.
  it.each([
    { what: 'the name as written wins', spec: './m', files: ['m', 'm.js'], target: '/ws/m' },
    { what: '.js is added', spec: './lib/x', files: ['lib/x.js'], target: '/ws/lib/x.js' },
    { what: '.js before .mjs', spec: './m', files: ['m.mjs', 'm.js'], target: '/ws/m.js' },
    { what: '.mjs is added', spec: './m', files: ['m.mjs'], target: '/ws/m.mjs' },
    { what: '.cjs is added', spec: './m', files: ['m.cjs'], target: '/ws/m.cjs' },
    { what: "a directory's index.js", spec: './lib', files: ['lib/index.js'], target: '/ws/lib/index.js' },
    { what: 'a file before a directory', spec: './lib', files: ['lib.js', 'lib/index.js'], target: '/ws/lib.js' },
  ])('an import without an extension: $what', async ({ spec, files, target }) => {
    for (const [entry, source] of [
      ['a.mjs', `import x from '${spec}';`],
      ['a.cjs', `const x = require('${spec}');`],
    ] as const) {
      const g = await graph({ [entry]: source, ...Object.fromEntries(files.map((f) => [f, ''])) }, entry);
      const found = g[`/ws/${entry}`]!;
      expect(found.kind === 'esm' ? found.deps[0]!.target : found.requires[spec]).toBe(target);
    }
  });

  it('follows a symlinked file inside the workspace, and passes a file that does not parse on unchanged', async () => {
    const fs = fsWith({ 'real.mjs': 'export const r = 1;', 'bad.mjs': 'export const = ;' });
    await fs.symlink('/ws/real.mjs', '/ws/link.mjs');
    const g = await new ModuleGraph(fs, '/ws').collect(['/ws/bad.mjs', '/ws/link.mjs']);
    expect(g['/ws/bad.mjs']).toMatchObject({ kind: 'esm', deps: [], source: 'export const = ;' });
    expect(g['/ws/link.mjs']?.kind).toBe('esm');
  });

  it('resolveSpecifier joins and normalizes POSIX paths', () => {
    expect(resolveSpecifier('/ws/src', '../test/./a.js')).toBe('/ws/test/a.js');
    expect(resolveSpecifier('/ws', '/abs/x')).toBe('/abs/x');
  });
});

describe('planNode and findTestFiles', () => {
  const files = {
    'a.test.js': '',
    'b.js': '',
    'test.mjs': '',
    'test-c.cjs': '',
    'd_test.js': '',
    'e-test.js': '',
    'test/helpers.js': '',
    'test/deep/f.js': '',
    'test/readme.md': '',
    'src/g.test.ts': '',
    'node_modules/pkg/x.test.js': '',
    'sub/h.test.js': '',
  };

  it('finds what node --test 20 finds, sorted, node_modules skipped', async () => {
    const found = await findTestFiles(fsWith(files), '/ws', '/ws', []);
    expect(found).toEqual({
      found: [
        '/ws/a.test.js',
        '/ws/d_test.js',
        '/ws/e-test.js',
        '/ws/sub/h.test.js',
        '/ws/test-c.cjs',
        '/ws/test.mjs',
        '/ws/test/deep/f.js',
        '/ws/test/helpers.js',
      ],
    });
  });

  it.each([
    { what: 'named files and directories', paths: ['b.js', 'sub'], want: { found: ['/ws/b.js', '/ws/sub/h.test.js'] } },
    { what: 'a missing path', paths: ['nope'], want: { error: "Could not find '/ws/nope'" } },
    {
      what: 'a path outside the workspace',
      paths: ['../x'],
      want: { error: "Could not find '/x': it is outside the workspace" },
    },
  ])('node --test with $what', async ({ paths, want }) => {
    expect(await findTestFiles(fsWith(files), '/ws', '/ws', paths)).toEqual(want);
  });

  it.each([
    {
      args: ['--test', '--test-name-pattern', 'a', '--test-name-pattern=b', '--test-reporter', 'spec', 'sub'],
      want: { mode: 'test', files: ['/ws/sub/h.test.js'], namePatterns: ['a', 'b'] },
    },
    {
      args: ['--no-warnings', 'b.js', '--flag', 'x'],
      want: { mode: 'run', entry: '/ws/b.js', argv: ['/ws/b.js', '--flag', 'x'] },
    },
    { args: ['--', 'b.js'], want: { mode: 'run', entry: '/ws/b.js', argv: ['/ws/b.js'] } },
    { args: ['-e', '1'], want: { mode: 'print', exitCode: 9 } },
    { args: ['--test-name-pattern'], want: { mode: 'print', exitCode: 9 } },
  ])('planNode $args', async ({ args, want }) => {
    expect(await planNode(fsWith(files), '/ws', '/ws', args)).toMatchObject(want);
  });
});
