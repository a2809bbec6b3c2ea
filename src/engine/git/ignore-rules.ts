/**
 * Git's ignore decisions for one working-tree scan, with each directory's `.gitignore` read once.
 *
 * isomorphic-git's `isIgnored` re-reads `.git/info/exclude` and the `.gitignore` of every parent
 * directory, and builds a fresh matcher for each, on every call: a scan that asks once per entry
 * does work that grows with the square of the tree's depth (and more). Here each directory's
 * rules are read and compiled once, the first time they are needed, and kept for everything below it. The answers are isomorphic-git's (a differential property test checks
 * them against `isIgnored`): the root's rules (the exclude file, then `.gitignore`) see the path
 * from the root, each deeper `.gitignore` sees it relative to its own directory, a deeper file
 * may re-include (`!pattern`) what a shallower one ignored, and a path under a directory some
 * level ignores is ignored, whatever a deeper level says.
 */
import ignore, { type Ignore } from 'ignore';
import { decodeText } from '../text.ts';
import { joinPath } from '../walk.ts';
import type { Workspace } from '../workspace.ts';

/** One directory's rules: `dir` ('' = the root) and its compiled matcher. */
interface Level {
  readonly dir: string;
  readonly rules: Ignore;
}

/** Where git keeps the repository's own ignore rules, which apply as if at the root. */
const EXCLUDE_FILE = '.git/info/exclude';

/** A file's text, or '' when it cannot be read (missing, a directory): as isomorphic-git reads it. */
async function textOrEmpty(ws: Workspace, path: string): Promise<string> {
  try {
    return decodeText(await ws.readFile(path));
  } catch {
    return '';
  }
}

/** isomorphic-git's dirname: everything before the last '/', '.' when there is none. */
function parentOf(path: string): string {
  const last = path.lastIndexOf('/');
  return last === -1 ? '.' : path.slice(0, last);
}

/**
 * The ignore rules in force during one scan. A directory's rules are read the first time an
 * entry in it or below it is asked about, and kept: a scan that meets only tracked entries
 * reads no ignore file at all, and each one is read at most once however deep the tree.
 */
export class IgnoreRules {
  /** Directory → the levels with rules at or above it, shallowest first (shared when it adds none). */
  private readonly levels = new Map<string, readonly Level[]>();

  constructor(private readonly ws: Workspace) {}

  /** Whether git ignores `path` (a directory when `isDir`). */
  async ignored(path: string, isDir: boolean): Promise<boolean> {
    const parent = parentOf(path);
    let status = false;
    for (const { dir, rules } of await this.levelsOf(parent === '.' ? '' : parent)) {
      // The root sees the whole path, a directory's with its trailing slash; a deeper level sees
      // the path below its directory, without one — as isomorphic-git asks.
      const rel = dir === '' ? (isDir ? `${path}/` : path) : path.slice(dir.length + 1);
      const relParent = parentOf(rel);
      if (relParent !== '.' && rules.ignores(relParent)) return true;
      status = status ? !rules.test(rel).unignored : rules.test(rel).ignored;
    }
    return status;
  }

  /** The levels in force in `dir`, reading (top-down, once each) the rules not read yet. */
  private async levelsOf(dir: string): Promise<readonly Level[]> {
    const unread: string[] = [];
    for (let d = dir; !this.levels.has(d); d = above(d)) {
      unread.push(d);
      if (d === '') break;
    }
    for (const d of unread.reverse()) {
      if (d === '') {
        // The exclude file applies as if it were at the root, before the root's .gitignore.
        const text = `${await textOrEmpty(this.ws, EXCLUDE_FILE)}\n${await textOrEmpty(this.ws, '.gitignore')}`;
        this.levels.set('', text.trim() === '' ? [] : [{ dir: '', rules: ignore().add(text) }]);
        continue;
      }
      const outer = this.levels.get(above(d))!;
      const text = await textOrEmpty(this.ws, joinPath(d, '.gitignore'));
      this.levels.set(d, text.trim() === '' ? outer : [...outer, { dir: d, rules: ignore().add(text) }]);
    }
    return this.levels.get(dir)!;
  }
}

/** The directory holding `dir` ('' for the root's children). */
function above(dir: string): string {
  const p = parentOf(dir);
  return p === '.' ? '' : p;
}
