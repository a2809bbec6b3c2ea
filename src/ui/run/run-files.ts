/**
 * A run's files at one step as texts, read from the worker's per-step captures (the same ones
 * time travel shows): what the patch and the zip of a run are made from. Binary files and files
 * too large to have been captured whole cannot be put in a text patch; they are named instead.
 */
import type { EngineClient } from '../../worker/client.ts';

export interface RunFiles {
  /** path → text, for every text file captured whole. */
  readonly texts: ReadonlyMap<string, string>;
  /** Files left out, and why. */
  readonly skipped: readonly { readonly path: string; readonly why: string }[];
}

/** The files of run `runId` after `step` (0 = before step 1). */
export async function readRunFiles(
  client: Pick<EngineClient, 'runTree' | 'runFile'>,
  runId: number,
  step: number,
): Promise<RunFiles> {
  const tree = await client.runTree(runId, step);
  const texts = new Map<string, string>();
  const skipped: { path: string; why: string }[] = [];
  for (const entry of tree.entries) {
    if (entry.type !== 'file') continue;
    const view = await client.runFile(runId, step, entry.path);
    if (view.unread) skipped.push({ path: entry.path, why: view.unread });
    else if (view.text === null) skipped.push({ path: entry.path, why: 'binary' });
    else if (view.truncated)
      skipped.push({ path: entry.path, why: `${Math.round(view.size / 1024)} KB, too large to be captured whole` });
    else texts.set(entry.path, view.text);
  }
  if (tree.truncated) skipped.push({ path: '…', why: 'the workspace has more files than a capture lists' });
  return { texts, skipped };
}
