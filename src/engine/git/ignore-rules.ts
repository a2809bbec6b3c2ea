/**
 * Git's ignore decisions for one working-tree scan, with each directory's `.gitignore` read once.
 *
 * isomorphic-git's `isIgnored` re-reads `.git/info/exclude` and the `.gitignore` of every parent
 * directory, and builds a fresh matcher for each, on every call: a scan that asks once per entry
 * does work that grows with the square of the tree's depth (and more). Here the scan enters
 * directories top-down; each one's rules are read and compiled once, when it is entered, and kept
 * for everything below it. The answers are isomorphic-git's (a differential property test checks
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
 * The ignore rules in force during one scan. Call `enter(dir)` for each directory before asking
 * about its entries (the root's rules are loaded by `load`); `ignored` then reads nothing.
 */
export class IgnoreRules {
  /** Directory → the levels with rules at or above it, shallowest first (shared when it adds none). */
  private readonly levels = new Map<string, readonly Level[]>();

  private constructor(private readonly ws: Workspace) {}

  /** Reads the exclude file and the root `.gitignore`. */
  static async load(ws: Workspace): Promise<IgnoreRules> {
    const rules = new IgnoreRules(ws);
    const text = `${await textOrEmpty(ws, EXCLUDE_FILE)}\n${await textOrEmpty(ws, '.gitignore')}`;
    rules.levels.set('', text.trim() === '' ? [] : [{ dir: '', rules: ignore().add(text) }]);
    return rules;
  }

  /** Reads `dir`'s `.gitignore` (once); its parent must have been entered. */
  async enter(dir: string): Promise<void> {
    if (this.levels.has(dir)) return;
    const above = this.levelsOf(parentOf(dir) === '.' ? '' : parentOf(dir));
    const text = await textOrEmpty(this.ws, joinPath(dir, '.gitignore'));
    this.levels.set(dir, text.trim() === '' ? above : [...above, { dir, rules: ignore().add(text) }]);
  }

  /** Whether git ignores `path` (a directory when `isDir`), whose parent has been entered. */
  ignored(path: string, isDir: boolean): boolean {
    const parent = parentOf(path);
    let status = false;
    for (const { dir, rules } of this.levelsOf(parent === '.' ? '' : parent)) {
      // The root sees the whole path, a directory's with its trailing slash; a deeper level sees
      // the path below its directory, without one — as isomorphic-git asks.
      const rel = dir === '' ? (isDir ? `${path}/` : path) : path.slice(dir.length + 1);
      const relParent = parentOf(rel);
      if (relParent !== '.' && rules.ignores(relParent)) return true;
      status = status ? !rules.test(rel).unignored : rules.test(rel).ignored;
    }
    return status;
  }

  private levelsOf(dir: string): readonly Level[] {
    const found = this.levels.get(dir);
    if (!found)
      throw new Error(`IgnoreRules: ${JSON.stringify(dir)} was not entered before its entries were asked about`);
    return found;
  }
}
