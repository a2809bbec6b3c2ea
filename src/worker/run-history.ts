/**
 * Time travel for a run: the workspace captured before step 1 and after every step, so the
 * page can show the whole file tree and any file as it was at any step, and each step's
 * workspace change as before/after texts. The change is measured on the workspace itself, not
 * taken from the tool's report, so it is true whichever tool (or shell command) made it and
 * shows nothing where a syntax check reverted an edit.
 *
 * Captures share the text of unchanged files with the capture before, so a long run over a
 * small project costs little more than its edits.
 */
import type { FileChange } from '../engine/result.ts';
import type { Workspace } from '../engine/workspace.ts';
import type { FileView, TreeEntry, WorkspaceSnapshot } from './protocol.ts';
import { ReadBudget } from '../engine/file-size.ts';
import { readFileView, treeEntries } from './workspace-view.ts';

/** One captured file: its view (text or binary) as the viewer would show it. */
type Captured = FileView;

/** The workspace at one point of the run. */
interface Capture {
  readonly tree: WorkspaceSnapshot;
  /** path → file, for every regular file in the tree. */
  readonly files: ReadonlyMap<string, Captured>;
}

/** What a binary file is shown as in a diff. */
function binaryText(size: number): string {
  return `(binary file, ${size} bytes)`;
}

function diffText(f: Captured | undefined): string | null {
  if (!f) return null;
  if (f.unread) return `(${f.unread})`;
  return f.text ?? binaryText(f.size);
}

export class RunHistory {
  readonly #captures: Capture[] = [];

  /** Captures taken so far: 1 + the number of recorded steps. */
  get length(): number {
    return this.#captures.length;
  }

  /** Captures the workspace now (before step 1, then after each step); returns the capture's step number. */
  async capture(ws: Workspace): Promise<number> {
    this.#captures.push(await this.#take(ws));
    return this.#captures.length - 1;
  }

  /** Every file that differs between the capture at `step` and `ws` as it is now (which is not kept), with its tree. */
  async changesTo(step: number, ws: Workspace): Promise<{ changes: FileChange[]; tree: WorkspaceSnapshot }> {
    const now = await this.#take(ws);
    return { changes: diffCaptures(this.#at(step), now), tree: now.tree };
  }

  async #take(ws: Workspace): Promise<Capture> {
    const previous = this.#captures[this.#captures.length - 1]?.files;
    const tree = await treeEntries(ws);
    const files = new Map<string, Captured>();
    // One capture reads at most one pass's total: a file too large, or past it, is kept as its size and why.
    const budget = new ReadBudget();
    for (const entry of tree.entries) {
      if (entry.type !== 'file') continue;
      let view: Captured;
      try {
        view = await readFileView(ws, entry.path, entry.size, budget);
      } catch {
        continue; // removed between the walk and the read
      }
      const before = previous?.get(entry.path);
      // Keep the earlier object when nothing changed, so unchanged texts are stored once.
      files.set(
        entry.path,
        before &&
          before.size === view.size &&
          before.text === view.text &&
          before.truncated === view.truncated &&
          before.unread === view.unread
          ? before
          : view,
      );
    }
    return { tree, files };
  }

  /** The tree at `step` (0 = before step 1). Throws for a step not captured: the page asked for something that does not exist. */
  tree(step: number): WorkspaceSnapshot {
    return this.#at(step).tree;
  }

  /** A file at `step`; throws with a message the viewer shows when it did not exist then. */
  file(step: number, path: string): FileView {
    const capture = this.#at(step);
    const file = capture.files.get(path);
    if (file) return file;
    const entry: TreeEntry | undefined = capture.tree.entries.find((e) => e.path === path);
    if (entry?.type === 'dir') throw new Error(`${path} is a directory; pick a file in the tree.`);
    if (entry?.type === 'symlink')
      throw new Error(`${path} is a symbolic link to ${entry.target ?? '?'}; open its target instead.`);
    throw new Error(`${path} did not exist after step ${step}; pick a step where the tree lists it.`);
  }

  /** Number of regular files at `step`. */
  fileCount(step: number): number {
    return this.#at(step).files.size;
  }

  /**
   * The text files at `step`, path → text, as a harness that reads files would see them:
   * binary files and files too large to have been captured whole are left out.
   */
  textFiles(step: number): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [path, f] of this.#at(step).files) if (f.text !== null && !f.truncated) out[path] = f.text;
    return out;
  }

  /** Every file that differs between step - 1 and `step`, sorted by path. */
  changes(step: number): FileChange[] {
    if (step < 1) return [];
    return diffCaptures(this.#at(step - 1), this.#at(step));
  }

  #at(step: number): Capture {
    const capture = Number.isInteger(step) ? this.#captures[step] : undefined;
    if (!capture)
      throw new RangeError(
        `run history: no capture for step ${step}; captured steps are 0..${this.#captures.length - 1}`,
      );
    return capture;
  }
}

/** Every file that differs between two captures, sorted by path. */
function diffCaptures(from: Capture, to: Capture): FileChange[] {
  const before = from.files;
  const after = to.files;
  const paths = [...new Set([...before.keys(), ...after.keys()])].sort();
  const out: FileChange[] = [];
  for (const path of paths) {
    const a = before.get(path);
    const b = after.get(path);
    if (a === b) continue;
    const beforeText = diffText(a);
    const afterText = diffText(b);
    if (beforeText !== afterText) out.push({ path, before: beforeText, after: afterText });
  }
  return out;
}
