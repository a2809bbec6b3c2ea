/**
 * Deeply nested commands: the policy measures the tree's depth without recursion before any
 * recursive reader (its own, or web-tree-sitter's node marshalling) sees it, and refuses a tree
 * past the cap as nested too deeply — never a stack overflow. One row per construct that nests.
 */
import type { Parser } from 'web-tree-sitter';
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeWasm } from '../support/node-wasm.ts';
import { parserFor } from '../../src/engine/treesitter/loader.ts';
import { decideShell } from '../../src/engine/shell/policy.ts';
import { MAX_TREE_DEPTH, treeDepth } from '../../src/engine/shell/depth.ts';
import { runCli } from '../cli/cli-process.ts';

let parser: Parser;
beforeAll(async () => {
  useNodeWasm();
  parser = await parserFor('bash');
});

/** Constructs that nest one level (or more) per repetition, each built `n` times over. */
const DEEP: readonly (readonly [name: string, build: (n: number) => string])[] = [
  ['arithmetic sum (the review case)', (n) => `echo $((${Array(n).fill('1').join('+')}))`],
  ['arithmetic parentheses', (n) => `echo $((${'('.repeat(n)}1${')'.repeat(n)}))`],
  ['&& chain', (n) => Array(n).fill('ls').join(' && ')],
  ['nested subshells', (n) => `${'('.repeat(n)}ls${')'.repeat(n)}`],
  ['nested command substitution', (n) => `echo ${'$('.repeat(n)}ls${')'.repeat(n)}`],
  ['negations in a test', (n) => `[[ ${'! '.repeat(n)}-f x ]]`],
];

describe('a command nested deeper than the cap', () => {
  it.each(DEEP)('%s is refused as nested too deeply, not a crash', (_name, build) => {
    // 2,600 repetitions stay under the 8,000-character cap for every row.
    const cmd = build(2600).slice(0, 8000);
    const d = decideShell(parser, cmd);
    expect(d.decision).toBe('refuse');
    expect(d.rule).toBe('too-deep');
    expect(d.reason).toContain('nested too deeply');
    expect(d.reason).toContain(String(MAX_TREE_DEPTH));
  });

  it.each(DEEP)('%s just under the cap is judged by the ordinary rules', (_name, build) => {
    // The largest size whose tree is within the cap, by bisection (depth grows with the size).
    const depthOf = (n: number): number => {
      const tree = parser.parse(build(n))!;
      try {
        return treeDepth(tree);
      } finally {
        tree.delete();
      }
    };
    let [lo, hi] = [1, 2600];
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (depthOf(mid) > MAX_TREE_DEPTH) hi = mid;
      else lo = mid;
    }
    expect(depthOf(lo)).toBeGreaterThan(MAX_TREE_DEPTH - 8);
    const d = decideShell(parser, build(lo));
    expect(d.rule).not.toBe('too-deep');
    expect(d.reason).not.toContain('internal error');
  });
});

describe('treeDepth', () => {
  it.each([
    ['ls', 3], // program > command > command_name > word
    ['ls | wc -l', 4],
  ] as const)('%s is %i levels deep', (cmd, depth) => {
    const tree = parser.parse(cmd)!;
    try {
      expect(treeDepth(tree)).toBe(depth);
    } finally {
      tree.delete();
    }
  });
});

describe('slm check-shell', () => {
  it('answers the review case and every later line, and exits 0', async () => {
    const input = `${JSON.stringify({ cmd: DEEP[0]![1](3200) })}\n${JSON.stringify({ cmd: 'ls' })}\n`;
    const run = await runCli(['check-shell'], input);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { rule: string });
    expect(lines.map((l) => l.rule)).toEqual(['too-deep', 'free']);
  }, 120_000);
});
