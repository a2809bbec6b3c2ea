/**
 * Arguments reach just-bash's commands already expanded: the runner expands patterns as bash
 * does (tools/plan-run.ts), so a `*`, `?` or `[` left in an argument is a literal character (a
 * pattern that matched nothing, or a name that holds one). just-bash's `ls` matches such an
 * operand again, with minimatch over every path of the filesystem — which backtracks: a word like
 * `*a*a*a*a*a*a*a*a*b` beside a long name of `a`s blocks the engine for minutes, past any
 * timeout. So `ls`'s operands get those characters escaped (minimatch reads `\*` as a plain `*`),
 * which is what they are; its messages name the operands as they were given.
 */

/** ls options that take the next word as their value (its value is not an operand). */
const LS_VALUE_OPTIONS = new Set([
  '-I',
  '-w',
  '-T',
  '--ignore',
  '--hide',
  '--width',
  '--tabsize',
  '--format',
  '--sort',
  '--time',
  '--time-style',
  '--block-size',
  '--quoting-style',
  '--indicator-style',
]);

/**
 * `args` for `cmd` as just-bash should get them — ls operands with their pattern characters
 * escaped, anything else unchanged — and `shown`, which puts the operands back as given in what
 * the command printed.
 */
export function literalOperands(
  cmd: string,
  args: readonly string[],
): { args: string[]; shown: (text: string) => string } {
  if (cmd !== 'ls') return { args: [...args], shown: (text) => text };
  let optionsDone = false;
  const escaped = new Map<string, string>();
  const out = args.map((a, i) => {
    const operand = optionsDone || !a.startsWith('-') || a === '-';
    if (a === '--') optionsDone = true;
    if (!operand || (LS_VALUE_OPTIONS.has(args[i - 1] ?? '') && !optionsDone)) return a;
    const e = a.replace(/[*?[\]\\]/g, '\\$&');
    if (e !== a) escaped.set(e, a);
    return e;
  });
  return { args: out, shown: (text) => [...escaped].reduce((t, [e, a]) => t.split(e).join(a), text) };
}
