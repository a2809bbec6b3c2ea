/** checkSyntax: one row per checker and rule — the extension picks the checker, the text the verdict. */
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeWasm } from '../../../tests/support/node-wasm.ts';
import { checkSyntax, syntaxCheckerFor } from './check.ts';
import { MAX_SYNTAX_CHECK_BYTES, type SyntaxVerdict } from './verdict.ts';

interface Row {
  name: string;
  path: string;
  text: string;
  /** null = no checker covers the file type. */
  want: SyntaxVerdict | null;
}

const ok = (checker: string): SyntaxVerdict => ({ status: 'ok', checker });
const error = (checker: string, message: string): SyntaxVerdict => ({ status: 'error', checker, message });

const rows: Row[] = [
  // JavaScript (acorn)
  { name: 'js: an ES module', path: 'src/a.js', text: 'import x from "y";\nexport default x;\n', want: ok('acorn') },
  {
    name: 'js: CommonJS with a top-level return',
    path: 'a.js',
    text: 'const a = require("a");\nif (!a) return;\nmodule.exports = a;\n',
    want: ok('acorn'),
  },
  { name: 'js: a leading BOM', path: 'a.js', text: '\uFEFFconst a = 1;\n', want: ok('acorn') },
  {
    name: 'js: a hashbang line',
    path: 'bin/cli.js',
    text: '#!/usr/bin/env node\nconsole.log(1);\n',
    want: ok('acorn'),
  },
  { name: 'js: top-level await in a module', path: 'a.js', text: 'const r = await fetch("x");\n', want: ok('acorn') },
  {
    name: 'js: an unclosed brace',
    path: 'a.js',
    text: 'function f() {\n  return 1;\n',
    want: error('acorn', '3:1 Unexpected end of input'),
  },
  {
    name: 'js: a stray token is named',
    path: 'a.js',
    text: 'const x = ;\n',
    want: error('acorn', '1:11 Unexpected token ";"'),
  },
  {
    name: 'js: the error of the mode that got further (a sloppy-mode script)',
    path: 'a.js',
    text: 'var a = 010;\nvar b = (;\n',
    want: error('acorn', '2:10 Unexpected token ";"'),
  },
  {
    name: 'mjs: a top-level return is an error in a module',
    path: 'a.mjs',
    text: 'return 1;\n',
    want: error('acorn', "1:1 'return' outside of function"),
  },
  { name: 'cjs: a top-level return is fine', path: 'a.cjs', text: 'return 1;\n', want: ok('acorn') },
  {
    name: 'cjs: import is an error in CommonJS',
    path: 'a.cjs',
    text: 'import x from "y";\n',
    want: error('acorn', "1:1 'import' and 'export' may appear only with 'sourceType: module'"),
  },
  {
    name: 'js: JSX gets no verdict rather than a false "broken"',
    path: 'src/App.js',
    text: 'export function App() {\n  return <div className="app">hi</div>;\n}\n',
    want: {
      status: 'skipped',
      checker: 'acorn',
      message: 'stopped at a "<" that looks like JSX, which acorn does not parse; not judged',
    },
  },
  {
    name: 'js: the extension is matched case-insensitively',
    path: 'LEGACY.JS',
    text: 'var a = (;\n',
    want: error('acorn', '1:10 Unexpected token ";"'),
  },

  // JSON / JSONC
  {
    name: 'json: strict JSON',
    path: 'package.json',
    text: '{\n  "name": "x",\n  "deps": [1, 2.5e3, -0, true, null]\n}\n',
    want: ok('json'),
  },
  {
    name: 'json: a trailing comma is an error in strict JSON',
    path: 'package.json',
    text: '{\n  "a": 1,\n}\n',
    want: error('json', "2:9 trailing comma — JSON allows none; remove the ',' before the closing bracket"),
  },
  {
    name: 'json: a missing comma',
    path: 'data.json',
    text: '{\n  "a": 1\n  "b": 2\n}\n',
    want: error('json', `3:3 expected ',' or '}' after a property value, found "\\""`),
  },
  {
    name: 'json: single quotes',
    path: 'data.json',
    text: "{'a': 1}",
    want: error('json', "1:2 expected a double-quoted property name, found ' (JSON strings need double quotes)"),
  },
  {
    name: 'json: an empty file',
    path: 'data.json',
    text: '',
    want: error('json', '1:1 no JSON value — the file is empty'),
  },
  {
    name: 'json: a file with a comment is read as JSONC, trailing commas too',
    path: 'meta.json',
    text: '{\n  // pinned\n  "a": [1, 2,],\n}\n',
    want: ok('jsonc'),
  },
  {
    name: 'json: tsconfig.json is JSONC by name',
    path: 'tsconfig.json',
    text: '{ "compilerOptions": { "strict": true, }, }\n',
    want: ok('jsonc'),
  },
  {
    name: 'json: tsconfig.build.json too',
    path: 'tsconfig.build.json',
    text: '{ "extends": "./tsconfig.json", }',
    want: ok('jsonc'),
  },
  { name: 'json: .vscode/*.json too', path: '.vscode/settings.json', text: '{ "a": 1, }', want: ok('jsonc') },
  {
    name: 'json: an empty .jsonc file holds no settings',
    path: 'x.jsonc',
    text: '// nothing yet\n',
    want: ok('jsonc'),
  },
  {
    name: 'json: JSONC still catches a missing comma',
    path: 'tsconfig.json',
    text: '{\n  "a": 1 // one\n  "b": 2\n}\n',
    want: error('jsonc', `3:3 expected ',' or '}' after a property value, found "\\""`),
  },
  {
    name: 'json: an unterminated comment',
    path: 'tsconfig.json',
    text: '{ /* open\n}',
    want: error('jsonc', '1:3 unterminated /* comment — add the closing */'),
  },
  { name: 'json: a leading BOM is not content', path: 'a.json', text: '\uFEFF{"a": 1}', want: ok('json') },

  // Python (tree-sitter + indentation rules)
  {
    name: 'py: valid code with match, walrus and decorators',
    path: 'a.py',
    text: 'import sys\n\n@dec\ndef f(x):\n    if (n := len(x)) > 1: return n\n    match x:\n        case [a, *_]:\n            return a\n        case _:\n            pass\n',
    want: ok('tree-sitter-python'),
  },
  { name: 'py: CRLF line endings', path: 'a.py', text: 'def f():\r\n    return 1\r\n', want: ok('tree-sitter-python') },
  {
    name: 'py: statements on one line carry no indentation',
    path: 'a.py',
    text: 'if x: a = 1; b = 2\nclass A: pass\n',
    want: ok('tree-sitter-python'),
  },
  {
    name: 'py: tabs count to the next multiple of 8',
    path: 'a.py',
    text: 'if x:\n\ty = 1\n        z = 2\n',
    want: ok('tree-sitter-python'),
  },
  { name: 'py: a leading BOM', path: 'a.py', text: '\uFEFFimport os\nx = 1\n', want: ok('tree-sitter-python') },
  {
    name: 'py: an unclosed paren',
    path: 'a.py',
    text: 'def f(:\n    pass\n',
    want: error('tree-sitter-python', '1:7 missing ")"'),
  },
  {
    name: 'py: a syntax error names the text',
    path: 'a.py',
    text: 'x = 1\ny = = 2\n',
    want: error('tree-sitter-python', '2:5 syntax error at "="'),
  },
  {
    name: 'py: unexpected indent',
    path: 'a.py',
    text: 'def f():\n    a = 1\n        b = 2\n',
    want: error('tree-sitter-python', '3:9 unexpected indent'),
  },
  {
    name: 'py: unindent that matches no level',
    path: 'a.py',
    text: 'def f():\n    a = 1\n  b = 2\n',
    want: error('tree-sitter-python', '3:3 unindent does not match any outer indentation level'),
  },
  {
    name: 'py: an indented module-level statement',
    path: 'a.py',
    text: 'import os\n    x = 1\n',
    want: error('tree-sitter-python', '2:5 unexpected indent'),
  },
  {
    name: 'py: an empty block',
    path: 'a.py',
    text: 'if x:\n# gone\ny = 1\n',
    want: error('tree-sitter-python', '1:6 expected an indented block after "if x:"'),
  },
  {
    name: 'py: try without except or finally',
    path: 'a.py',
    text: 'try:\n    x = 1\ny = 2\n',
    want: error('tree-sitter-python', "1:1 expected 'except' or 'finally' block after this try"),
  },

  // Go (tree-sitter)
  {
    name: 'go: generics',
    path: 'pkg/a.go',
    text: 'package a\n\nfunc Map[T, U any](xs []T, f func(T) U) []U {\n\tout := make([]U, 0, len(xs))\n\tfor _, x := range xs {\n\t\tout = append(out, f(x))\n\t}\n\treturn out\n}\n',
    want: ok('tree-sitter-go'),
  },
  { name: 'go: a leading BOM', path: 'a.go', text: '\uFEFFpackage a\n', want: ok('tree-sitter-go') },
  {
    name: 'go: a missing brace',
    path: 'main.go',
    text: 'package main\n\nfunc main() {\n\tif true {\n}\n',
    want: error('tree-sitter-go', '6:1 missing "}"'),
  },
  {
    name: 'go: a stray token',
    path: 'main.go',
    text: 'package main\n\nfunc main() {\n\tx := := 1\n}\n',
    want: error('tree-sitter-go', '4:7 syntax error at ":="'),
  },

  // Not checked
  { name: 'ts is deliberately not checked', path: 'src/a.ts', text: 'const x: = ;', want: null },
  { name: 'markdown is not checked', path: 'README.md', text: '# (', want: null },
  { name: 'a file without an extension', path: 'Makefile', text: 'all: (', want: null },
  { name: 'an extension named like an Object member', path: 'a.constructor', text: '(', want: null },
];

describe('checkSyntax', () => {
  beforeAll(() => useNodeWasm());

  it.each(rows)('$name', async ({ path, text, want }) => {
    expect(await checkSyntax(path, text)).toEqual(want);
    expect(syntaxCheckerFor(path)).toBe(want === null ? null : want.checker === 'jsonc' ? 'json' : want.checker);
  });

  it('a check past its budget is skipped, and the parser works again afterwards', async () => {
    const bigPy = 'def f(x):\n    return x + 1\n\n'.repeat(20_000);
    const bigJs = 'function f(x) { return x + 1; }\n'.repeat(20_000);
    for (const [path, text, checker] of [
      ['big.py', bigPy, 'tree-sitter-python'],
      ['big.js', bigJs, 'acorn'],
    ] as const) {
      const v = await checkSyntax(path, text, { budgetMs: 0 });
      expect(v).toMatchObject({ status: 'skipped', checker });
      expect(v?.message).toMatch(/^the check took \d+ ms, over its 0 ms budget; not judged$/);
      // A budget no slow machine reaches: the first full parse also pays for compiling the parser.
      expect(await checkSyntax(path, text, { budgetMs: 60_000 })).toEqual(ok(checker));
    }
  });

  it('nesting too deep for acorn is skipped, never an error', async () => {
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    expect(await checkSyntax('deep.js', deep)).toEqual({
      status: 'skipped',
      checker: 'acorn',
      message: 'the text is nested too deeply for acorn; not judged',
      bound: 'depth',
    });
    // The JSON scanner keeps an explicit stack and judges the same text.
    expect(await checkSyntax('deep.json', deep)).toEqual(ok('json'));
  });
});

describe('checkSyntax: the size limit (MAX_SYNTAX_CHECK_BYTES, UTF-8 bytes)', () => {
  beforeAll(() => useNodeWasm());
  const skipped = (checker: string, size: string): SyntaxVerdict => ({
    status: 'skipped',
    checker,
    bound: 'size',
    message: `the file is ${size}, over the 1 MB limit; not judged`,
  });
  /** A valid JS text of exactly `bytes` UTF-8 bytes: a line comment of `fill` after `x;`. */
  const js = (bytes: number, fill = 'a') => `x;//${fill.repeat((bytes - 4) / new TextEncoder().encode(fill).length)}`;
  it.each([
    ['exactly at the limit: judged', 'a.js', js(MAX_SYNTAX_CHECK_BYTES), ok('acorn')],
    [
      'one byte over: skipped, the size in bytes',
      'a.js',
      js(MAX_SYNTAX_CHECK_BYTES + 1),
      skipped('acorn', '1,000,001 bytes'),
    ],
    ['counted in UTF-8 bytes, not characters (€ is 3 bytes)', 'a.js', js(1_200_004, '€'), skipped('acorn', '1.2 MB')],
    ['a 12.3 MB file', 'a.js', js(12_300_000), skipped('acorn', '12.3 MB')],
    ['json too', 'a.json', `[${'1,'.repeat(600_000)}1]`, skipped('json', '1.2 MB')],
    [
      'python too',
      'a.py',
      `x = 1\n${'#'.repeat(MAX_SYNTAX_CHECK_BYTES)}`,
      skipped('tree-sitter-python', '1,000,006 bytes'),
    ],
    [
      'go too',
      'a.go',
      `package a\n${'//'.repeat(MAX_SYNTAX_CHECK_BYTES / 2)}`,
      skipped('tree-sitter-go', '1,000,010 bytes'),
    ],
  ] as const)('%s', async (_name, path, text, want) => {
    expect(await checkSyntax(path, text, { budgetMs: 60_000 })).toEqual(want);
  });
});
