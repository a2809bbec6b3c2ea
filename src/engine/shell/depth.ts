/**
 * The nesting bound. The policy's readers walk the tree recursively, and so does web-tree-sitter
 * when it marshals a node into JavaScript; a command under the length cap can still nest thousands
 * of levels deep (`$((1+1+…+1))` with 3,200 terms is a left-leaning chain of 3,200 nodes), which
 * overflows the stack. So before any of them sees the tree, its depth is measured here with a
 * tree cursor — iteratively, one node at a time, no recursion and no node objects — and a tree
 * deeper than the cap is refused.
 */
import type { Tree } from 'web-tree-sitter';
import { never, USE, type Finding } from './decision.ts';

/**
 * The deepest tree the policy reads. Commands it allows nest a few dozen levels at most (a
 * pipeline of stages, each a command of concatenated, quoted words); the cap leaves room for
 * those and keeps every recursive reader far from the stack's end on any host.
 */
export const MAX_TREE_DEPTH = 256;

/**
 * How deep `tree` goes, counting the root as 0, measured without recursion. Stops counting once
 * it passes `cap` (the answer is then `cap + 1`), so a deep tree costs no more than its first
 * deep path.
 */
export function treeDepth(tree: Tree, cap: number = MAX_TREE_DEPTH): number {
  const cursor = tree.walk();
  try {
    let depth = 0;
    let deepest = 0;
    for (;;) {
      if (cursor.gotoFirstChild()) {
        depth++;
        if (depth > deepest) deepest = depth;
        if (deepest > cap) return cap + 1;
        continue;
      }
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return deepest;
        depth--;
      }
    }
  } finally {
    cursor.delete(); // wasm memory is not garbage-collected
  }
}

/** The refusal for a command whose tree nests deeper than MAX_TREE_DEPTH, or null. */
export function depthFinding(tree: Tree): Finding | null {
  const depth = treeDepth(tree);
  if (depth <= MAX_TREE_DEPTH) return null;
  return never(
    'too-deep',
    `the command is nested too deeply to check (its syntax tree goes past ${MAX_TREE_DEPTH} levels)`,
    `${USE.oneCommand} Split a long expression or chain into shorter commands.`,
  );
}
