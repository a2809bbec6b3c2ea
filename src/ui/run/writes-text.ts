/**
 * How an approval prompt says what a gated command would write, from the policy's
 * `ShellDecision.writes` (carried on the approval question): the list, "writes no files" when it
 * is empty, and a plain warning when the policy could not tell.
 */

/** The sentence an approval prompt shows for a gated command's writes. */
export function writesText(writes: readonly string[] | undefined): string {
  if (writes === undefined) return 'ws_shell cannot tell which files this command would write.';
  if (writes.length === 0) return 'This command writes no files.';
  return `This command would write: ${writes.join(', ')}.`;
}
