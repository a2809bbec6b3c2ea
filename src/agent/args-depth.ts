/**
 * The nesting bound on a call's arguments. A reply under the output cap can open tens of
 * thousands of brackets (`{"tool":"ws_read","args":[[[[…`), which the parser repairs into an
 * argument that deep; every later reader of it (the engine's JSON.stringify, the loop guard,
 * the recorder) walks it recursively and overflows the stack, ending the whole run or replay as an
 * internal error. So the depth is measured here, without recursion, before a call is taken.
 */

/** The deepest arguments a call may have: every tool's own schema nests a few levels at most. */
export const MAX_ARGS_DEPTH = 64;

/**
 * How deep `value` nests (a scalar is 0, `[]` and `{}` are 1), measured without recursion; stops
 * counting once it passes `cap` (the answer is then `cap + 1`).
 */
export function nestingDepth(value: unknown, cap: number = MAX_ARGS_DEPTH): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > deepest) deepest = depth + 1;
    if (deepest > cap) return cap + 1;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** What the model reads when its call's arguments nest past MAX_ARGS_DEPTH. */
export const TOO_DEEP =
  `Your call's arguments nest more than ${MAX_ARGS_DEPTH} levels deep (brackets opened and never closed?), so nothing was run. ` +
  'Send one flat JSON object, e.g. {"tool": "ws_read", "args": {"path": "src/index.js"}}.';
