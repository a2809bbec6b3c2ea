/**
 * A read gutter (`    42|`) pasted into a hunk. It only matters when the hunk's old side is
 * not in the file as written. Then, as for ws_edit's old_str:
 * - on every line of the old side, and on every line of the new side or on none of it (the
 *   model wrote the new lines clean): it is stripped, and the result says so;
 * - on some lines only — of the old side, or of the new side when the old side has it on
 *   every line — it is not a paste of a read and the hunk is refused by name.
 */
import { gutterExample, scanGutter, stripStyle, type GutterStyle } from '../gutter.ts';

/** What to do with a hunk's gutter: nothing, strip it (the lines without it), or refuse it (where it is partial). */
export type GutterPlan =
  | { readonly kind: 'keep' }
  | { readonly kind: 'strip'; readonly oldLines: readonly string[]; readonly newLines: readonly string[] }
  | {
      readonly kind: 'partial';
      readonly side: 'old' | 'new';
      readonly style: GutterStyle;
      /** Lines of that side carrying the gutter, of its non-blank lines. */
      readonly marked: number;
      readonly of: number;
      readonly example?: { readonly before: string; readonly after: string };
    };

/**
 * Decides what a hunk's gutter means; `found` says whether the old side is in the file as
 * written. It searches the whole file, so it is asked only when the old side carries a gutter.
 */
export function planGutter(oldLines: readonly string[], newLines: readonly string[], found: () => boolean): GutterPlan {
  if (oldLines.length === 0) return { kind: 'keep' };
  const oldText = oldLines.join('\n');
  const old = scanGutter(oldText);
  if (old.kind !== 'none' && found()) return { kind: 'keep' };
  switch (old.kind) {
    case 'none':
      return { kind: 'keep' };
    case 'partial':
      return partial('old', oldText, old.style, old.lines.length, old.of);
    case 'all': {
      const newText = newLines.join('\n');
      const unmarked = stripStyle(newText, old.style) === newText;
      const next = scanGutter(newText);
      if (!unmarked && !(next.kind === 'all' && next.style === old.style)) {
        const nonBlank = newLines.filter((l) => l.trim() !== '').length;
        const clean = stripStyle(newText, old.style).split('\n');
        const marked = newLines.filter((l, i) => l !== clean[i]).length;
        return partial('new', newText, old.style, marked, nonBlank);
      }
      return {
        kind: 'strip',
        oldLines: old.stripped.split('\n'),
        newLines: unmarked ? newLines : stripStyle(newText, old.style).split('\n'),
      };
    }
    default: {
      const never: never = old;
      throw new Error(`planGutter: unhandled scan ${JSON.stringify(never)}`);
    }
  }
}

function partial(side: 'old' | 'new', text: string, style: GutterStyle, marked: number, of: number): GutterPlan {
  const example = gutterExample(text, style);
  return example ? { kind: 'partial', side, style, marked, of, example } : { kind: 'partial', side, style, marked, of };
}
