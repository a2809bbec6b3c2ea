/**
 * A file's lines within a search window, as the line rungs look at them. Nothing is computed
 * for every line up front: a rung asks for the lines whose key is old_str's first line's, and
 * only the lines holding that key's verbatim core (found by a substring search of the text) are
 * keyed; then the rung looks at the few lines after each of those. Lines found, keys and blank-line
 * checks are kept, so the rungs share the work: a walk of the whole ladder over a 2,000-line file
 * keys a handful of lines, not 2,000 at every rung.
 */
import { isBlank, type LineTable } from './lines.ts';
import { verbatimCore } from './normalize.ts';

/** What is known of a line's blankness. */
const UNKNOWN = 0;
const BLANK = 1;
const SOLID = 2;

export class Haystack {
  private readonly keyCache = new Map<(line: string) => string, (string | undefined)[]>();
  private readonly holding = new Map<string, number[]>();
  private readonly blank: Uint8Array;

  /** `first`/`last`: the window, 0-based inclusive line indices. */
  constructor(
    readonly table: LineTable,
    readonly first = 0,
    readonly last = table.count - 1,
  ) {
    this.blank = new Uint8Array(table.count);
  }

  /** `key(line)` of line `i`. */
  key(key: (line: string) => string, i: number): string {
    let keys = this.keyCache.get(key);
    if (!keys) {
      keys = new Array<string | undefined>(this.table.count);
      this.keyCache.set(key, keys);
    }
    return (keys[i] ??= key(this.table.line(i)));
  }

  /** The window's lines whose `key` is `target` (a rung rule's key), in file order. */
  linesKeyed(key: (line: string) => string, target: string): number[] {
    const core = verbatimCore(target);
    if (core !== '') return this.linesHolding(core).filter((i) => this.key(key, i) === target);
    const found: number[] = [];
    for (let i = this.first; i <= this.last; i++) if (this.key(key, i) === target) found.push(i);
    return found;
  }

  /** The window's lines that hold `probe`, in file order. */
  private linesHolding(probe: string): number[] {
    let lines = this.holding.get(probe);
    if (lines) return lines;
    lines = [];
    const { text } = this.table;
    const to = this.table.nextStart(this.last);
    // One hit is enough to look at a line: the search goes on from the next line.
    for (let at = text.indexOf(probe, this.table.starts[this.first]); at >= 0 && at < to;) {
      const i = this.table.lineAt(at);
      lines.push(i);
      at = text.indexOf(probe, this.table.nextStart(i));
    }
    this.holding.set(probe, lines);
    return lines;
  }

  /**
   * The window's lines from line `start` on, at most `n` of them: the lines in a row, or with
   * `skipBlank` the non-blank ones (`start` itself is taken as it is).
   */
  run(start: number, n: number, skipBlank: boolean): number[] {
    const lines = [start];
    for (let i = start + 1; lines.length < n && i <= this.last; i++)
      if (!skipBlank || !this.blankLine(i)) lines.push(i);
    return lines;
  }

  private blankLine(i: number): boolean {
    if (this.blank[i] === UNKNOWN) this.blank[i] = isBlank(this.table.line(i)) ? BLANK : SOLID;
    return this.blank[i] === BLANK;
  }
}
