/**
 * Recovery pointers for a path that is not there: similarly named files the model probably
 * meant, and the ws_glob / ws_list calls that would find the right one.
 */
import type { Workspace } from './workspace.ts';
import { baseName, dirName, SKIP_DIRS, walkTree } from './walk.ts';

/** How many similarly named paths a message names at most. */
const MAX_SUGGESTIONS = 5;
/** The look-up walk is bounded: a miss must stay cheap on a large tree. */
const SUGGEST_WALK_ENTRIES = 5000;

function stem(name: string): string {
  const i = name.lastIndexOf('.');
  return i > 0 ? name.slice(0, i) : name;
}

/**
 * Edit distance counting an insertion, deletion, substitution or swap of two neighbours as one
 * edit (optimal string alignment), since swapped letters are the commonest typo in a file name.
 * Stops early once the distance exceeds `max`.
 */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2]! + 1);
      cur.push(v);
      rowMin = Math.min(rowMin, v);
    }
    if (rowMin > max) return max + 1;
    prev2 = prev;
    prev = cur;
  }
  return prev[b.length]!;
}

/**
 * Paths in the tree whose name resembles the last segment of `wanted`: the same name in another
 * folder or in another case first, then the same name with another extension, then near
 * spellings. Directories carry a trailing `/`.
 */
export async function similarPaths(ws: Workspace, wanted: string): Promise<string[]> {
  const want = baseName(wanted).toLowerCase();
  if (want === '') return [];
  const wantStem = stem(want);
  // One typo in a short name, up to three in a long one.
  const tolerance = Math.min(3, Math.max(1, Math.floor(wantStem.length / 3)));
  const { entries } = await walkTree(ws, '', { skip: SKIP_DIRS, maxEntries: SUGGEST_WALK_ENTRIES });
  const scored: { shown: string; rank: number; nameDistance: number; pathDistance: number }[] = [];
  for (const e of entries) {
    if (e.path === wanted) continue;
    const name = baseName(e.path).toLowerCase();
    const nameStem = stem(name);
    const nameDistance = Math.min(editDistance(name, want, tolerance), editDistance(nameStem, wantStem, tolerance));
    const rank = name === want ? 0 : nameStem === wantStem ? 1 : nameDistance <= tolerance ? 2 : -1;
    if (rank < 0) continue;
    scored.push({
      shown: e.type === 'dir' ? `${e.path}/` : e.path,
      rank,
      nameDistance,
      pathDistance: editDistance(e.path, wanted),
    });
  }
  scored.sort(
    (a, b) =>
      a.rank - b.rank ||
      a.nameDistance - b.nameDistance ||
      a.pathDistance - b.pathDistance ||
      (a.shown < b.shown ? -1 : 1),
  );
  return scored.slice(0, MAX_SUGGESTIONS).map((s) => s.shown);
}

/** The nearest directory at or above `path`'s parent that exists ('' = the root). */
export async function nearestExistingDir(ws: Workspace, path: string): Promise<string> {
  let dir = dirName(path);
  while (dir !== '') {
    if ((await ws.lstat(dir))?.type === 'dir') return dir;
    dir = dirName(dir);
  }
  return '';
}

/**
 * The message for a path that does not exist. `path` is the jailed physical path, `display`
 * the path as the model spelled it.
 */
export async function missingPathText(ws: Workspace, path: string, display: string): Promise<string> {
  const similar = await similarPaths(ws, path);
  const parent = (await nearestExistingDir(ws, path)) || '.';
  const base = baseName(path) || display;
  const lines = [`${display} does not exist.`];
  if (similar.length) lines.push(`Similarly named: ${similar.join(', ')}.`);
  lines.push(
    `Find the right path with ws_glob ${JSON.stringify({ pattern: `**/${base}` })} or ws_list ${JSON.stringify({ path: parent })}.`,
  );
  return lines.join('\n');
}
