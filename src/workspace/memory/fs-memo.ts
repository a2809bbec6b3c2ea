/**
 * What the memory workspace has already asked its InMemoryFs, kept until the tree changes (see
 * fs-changes.ts). InMemoryFs answers a directory listing by scanning every entry of the
 * filesystem, and the workspace stats each ancestor of a path before touching it; over a tree
 * of thousands of files that made every walk quadratic. Here the listings of all directories
 * come from one pass over the entries, and ancestor and lstat answers are asked once per path.
 */
import type { DirEntry, Stat } from '../../engine/workspace.ts';
import { trackFs, type TrackedFs } from './fs-changes.ts';
import type { InMemoryFs } from 'just-bash';

const byName = (a: DirEntry, b: DirEntry): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** As MemoryWorkspace.readdir names what InMemoryFs.readdirWithFileTypes reports. */
function entryType(type: string): DirEntry['type'] {
  return type === 'symlink' ? 'symlink' : type === 'directory' ? 'dir' : 'file';
}

export class FsMemo {
  private readonly tracked: TrackedFs | null;
  private seen = -1;
  private listings: Map<string, DirEntry[]> | null = null;
  private readonly dirs = new Map<string, boolean>();
  private readonly stats = new Map<string, Stat | null>();
  /** Directories that, with every ancestor, stat'ed as directories in this version of the tree. */
  private readonly chains = new Set<string>();

  constructor(fs: InMemoryFs) {
    this.tracked = trackFs(fs);
  }

  /** True while the answers kept here still describe the tree; clears them after a change. */
  private fresh(): boolean {
    if (!this.tracked) return false;
    if (this.tracked.version !== this.seen) {
      this.seen = this.tracked.version;
      this.listings = null;
      this.dirs.clear();
      this.stats.clear();
      this.chains.clear();
    }
    return true;
  }

  /** `compute`'s answer for `key`, asked once per version; errors are not kept. */
  private async kept<T>(map: Map<string, T>, key: string, compute: () => Promise<T>): Promise<T> {
    if (!this.fresh()) return compute();
    if (map.has(key)) return map.get(key)!;
    const version = this.seen;
    const value = await compute();
    if (this.fresh() && this.seen === version) map.set(key, value);
    return value;
  }

  /** The tree's version now, for `markChain`: the checks a mark rests on start in it. */
  version(): number {
    this.fresh();
    return this.seen;
  }

  /** Whether `abs` and each of its ancestors were found to be directories in this version. */
  chainChecked(abs: string): boolean {
    return this.fresh() && this.chains.has(abs);
  }

  /** Keeps that `abs` and its ancestors are directories, when the tree is still at `version`. */
  markChain(abs: string, version: number): void {
    if (this.fresh() && this.seen === version) this.chains.add(abs);
  }

  /** Whether `abs` is a directory following links; null when it cannot be stat'ed. */
  isDir(abs: string, compute: () => Promise<boolean | null>): Promise<boolean | null> {
    return this.kept(this.dirs as Map<string, boolean | null>, abs, compute);
  }

  lstat(abs: string, compute: () => Promise<Stat | null>): Promise<Stat | null> {
    return this.kept(this.stats, abs, compute).then((st) => (st ? { ...st } : null));
  }

  /**
   * The entries of `abs`, sorted by name, when it is a directory itself (not a link to one);
   * null when the filesystem must answer (a link, a missing path, no tracking).
   */
  listing(abs: string): DirEntry[] | null {
    if (!this.fresh() || this.tracked!.entries.get(abs)?.type !== 'directory') return null;
    if (!this.listings) {
      const listings = new Map<string, DirEntry[]>();
      for (const [path, entry] of this.tracked!.entries) {
        const cut = path.lastIndexOf('/');
        const type = entryType(entry.type);
        if (path === '/' || cut < 0) continue;
        const parent = cut === 0 ? '/' : path.slice(0, cut);
        const list = listings.get(parent);
        const child = { name: path.slice(cut + 1), type };
        if (list) list.push(child);
        else listings.set(parent, [child]);
      }
      for (const list of listings.values()) list.sort(byName);
      this.listings = listings;
    }
    return this.listings.get(abs)?.map((e) => ({ ...e })) ?? [];
  }
}
