/**
 * The Python rules walk only the nodes that can hold a block (BLOCK_HOLDERS). Two guards that
 * the pruning loses no rule: the list covers every type tree-sitter-python's node-types.json
 * allows a `block` or `try_statement` under, and each rule still fires inside every kind of
 * holder (one row each; CPython's compile() gives the same message for each of these texts).
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeWasm } from '../../platform/node-wasm.ts';
import { checkSyntax } from './check.ts';
import { BLOCK_HOLDERS } from './python-rules.ts';

interface NodeType {
  readonly type: string;
  readonly named: boolean;
  readonly fields?: Record<string, { readonly types: readonly { type: string }[] }>;
  readonly children?: { readonly types: readonly { type: string }[] };
  readonly subtypes?: readonly { type: string }[];
}

/** Every node type whose subtree can contain a block or a try statement, by the grammar's own list. */
function holdersInGrammar(): Set<string> {
  const types = JSON.parse(
    readFileSync(new URL('../../../node_modules/tree-sitter-python/src/node-types.json', import.meta.url), 'utf8'),
  ) as NodeType[];
  const subtypes = new Map(types.filter((t) => t.subtypes).map((t) => [t.type, t.subtypes!.map((s) => s.type)]));
  // A child slot may name a supertype (e.g. `_compound_statement`): expand it to what it stands for.
  const expand = (names: readonly string[]): string[] => names.flatMap((n) => [n, ...expand(subtypes.get(n) ?? [])]);
  const children = (t: NodeType): string[] =>
    expand([...Object.values(t.fields ?? {}).flatMap((f) => f.types), ...(t.children?.types ?? [])].map((c) => c.type));
  const holders = new Set(['block', 'try_statement']);
  for (let grew = true; grew;) {
    grew = false;
    for (const t of types) {
      if (!holders.has(t.type) && children(t).some((c) => holders.has(c))) {
        holders.add(t.type);
        grew = true;
      }
    }
  }
  return holders;
}

const error = (message: string) => ({ status: 'error', checker: 'tree-sitter-python', message });
const ok = { status: 'ok', checker: 'tree-sitter-python' };

const rows = [
  {
    holder: 'with_statement',
    text: 'with open(p) as f:\n    a = 1\n      b = 2\n',
    want: error('3:7 unexpected indent'),
  },
  {
    holder: 'while_statement + else_clause',
    text: 'while x:\n    x -= 1\nelse:\n    a = 1\n  b = 2\n',
    want: error('5:3 unindent does not match any outer indentation level'),
  },
  {
    holder: 'for_statement + else_clause',
    text: 'for i in r:\n    pass\nelse:\n    a = 1\n        b = 2\n',
    want: error('5:9 unexpected indent'),
  },
  {
    holder: 'elif_clause',
    text: 'if a:\n    pass\nelif b:\n    c = 1\n     d = 2\n',
    want: error('5:6 unexpected indent'),
  },
  {
    holder: 'except_clause',
    text: 'try:\n    a = 1\nexcept E as e:\n    b = 1\n      c = 2\n',
    want: error('5:7 unexpected indent'),
  },
  {
    holder: 'finally_clause',
    text: 'try:\n    a = 1\nfinally:\n    b = 1\n  c = 2\n',
    want: error('5:3 unindent does not match any outer indentation level'),
  },
  {
    holder: 'match_statement + case_clause',
    text: 'match x:\n    case 1:\n        a = 1\n          b = 2\n',
    want: error('4:11 unexpected indent'),
  },
  {
    holder: 'class_definition + function_definition',
    text: 'class A:\n    def f(self):\n        a = 1\n            b = 2\n',
    want: error('4:13 unexpected indent'),
  },
  {
    holder: 'decorated_definition',
    text: 'class A:\n    @staticmethod\n    def f():\n        a = 1\n         b = 2\n',
    want: error('5:10 unexpected indent'),
  },
  {
    holder: 'async def + async with',
    text: 'async def f():\n    async with a as b:\n        c = 1\n          d = 2\n',
    want: error('4:11 unexpected indent'),
  },
  {
    holder: 'a try nested in a method',
    text: 'class A:\n    def f(self):\n        try:\n            a = 1\n        x = 2\n',
    want: error("3:9 expected 'except' or 'finally' block after this try"),
  },
  {
    holder: 'an empty block nested in a function',
    text: 'def f():\n    for a in b:\n    # nothing\n    return 1\n',
    want: error('2:16 expected an indented block after "for a in b:"'),
  },
  // Expressions hold no statements: their continuation lines carry no indentation rule.
  {
    holder: 'none (multi-line expressions)',
    text: 'x = [\n  1,\n      2]\nf(lambda y: (\n    y))\nd = {k: v\n   for k, v in e}\n',
    want: ok,
  },
  { holder: 'except* (an except clause)', text: 'try:\n    a = 1\nexcept* E:\n    b = 1\n', want: ok },
];

describe('python rules on a pruned walk', () => {
  beforeAll(() => useNodeWasm());

  it('BLOCK_HOLDERS covers every type the grammar allows a block or try statement under', () => {
    const missing = [...holdersInGrammar()].filter((t) => !BLOCK_HOLDERS.has(t));
    expect(missing).toEqual([]);
  });

  it.each(rows)('inside $holder', async ({ text, want }) => {
    expect(await checkSyntax('a.py', text)).toEqual(want);
  });
});
