/**
 * Tools that do not scan options the getopt way, each read exactly as its own parser reads it,
 * so a spelling that getopt would read differently cannot hide an output file:
 *
 * - xxd takes one option per word and knows it by its prefix: `-ps` is `-p` (postscript), `-rs`
 *   is `-r` (revert), `-is` is `-i`; `-c`, `-g`, `-l`, `-n`, `-o`, `-s`, `-R` take a value,
 *   attached (`-c8`) or in the next word (also their long spellings `-cols 8`, `-seek 4`).
 * - tree bundles letters (`-Lo`), and every value letter in a bundle takes the next unused word
 *   in order: `tree -Lo 2 out.txt` is `-L 2 -o out.txt`.
 *
 * Both return the same tokens as `scanOptions`, so one checker applies to every simple tool.
 */
import { tail, type Token } from './options.ts';
import type { Word } from './words.ts';

/** xxd's options that take a value, by the letter that names them. */
const XXD_VALUE = 'cglnosR';

/** xxd: one option per word, named by its first letter. */
export function scanXxd(args: readonly Word[]): Token[] {
  const out: Token[] = [];
  let optionsDone = false;
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    const t = word.text;
    if (optionsDone || !t.startsWith('-') || t === '-') {
      out.push({ kind: 'operand', text: t, word, index: i });
      continue;
    }
    if (t === '--') {
      optionsDone = true;
      continue;
    }
    const name = t[1] === '-' ? (t[2] ?? '-') : t[1]!;
    if (!XXD_VALUE.includes(name)) {
      out.push({ kind: 'short', name, value: null, valueRaw: null, valueWord: null, word });
      continue;
    }
    // `-c8` / `-s+4` carry the value; `-c`, `-cols`, `-seek` … take the next word.
    const attached = t.length > 2 && /^[-+0-9x]/i.test(t.slice(2));
    const valueWord = attached ? tail(word, 2) : i + 1 < args.length ? args[++i]! : null;
    out.push({
      kind: 'short',
      name,
      value: valueWord?.text ?? null,
      valueRaw: attached ? word.raw : (valueWord?.raw ?? null),
      valueWord,
      word,
    });
  }
  return out;
}

/** tree's letters that take a value (from the following words, in order). */
const TREE_VALUE = 'LPIHTo';
/**
 * tree's long options that take a value, as `--name=value` or the next word. `--fromfile` and
 * `--fromtabfile` take none: they make the operands files tree reads, which the jail checks.
 */
const TREE_LONG_VALUE = ['filelimit', 'charset', 'timefmt', 'sort', 'gitfile', 'infofile', 'hintro', 'houtro'];

/** tree: bundled letters whose values come from the words after the bundle. */
export function scanTree(args: readonly Word[]): Token[] {
  const out: Token[] = [];
  let optionsDone = false;
  const taken = new Set<number>();
  for (let i = 0; i < args.length; i++) {
    if (taken.has(i)) continue;
    const word = args[i]!;
    const t = word.text;
    if (optionsDone || !t.startsWith('-') || t === '-') {
      out.push({ kind: 'operand', text: t, word, index: i });
      continue;
    }
    if (t === '--') {
      optionsDone = true;
      continue;
    }
    let next = i + 1;
    const nextFree = (): Word | null => {
      while (taken.has(next)) next++;
      if (next >= args.length) return null;
      taken.add(next);
      return args[next++]!;
    };
    if (t.startsWith('--')) {
      const eq = t.indexOf('=');
      const name = eq < 0 ? t.slice(2) : t.slice(2, eq);
      const valueWord = eq >= 0 ? tail(word, eq + 1) : TREE_LONG_VALUE.includes(name) ? nextFree() : null;
      out.push({
        kind: 'long',
        name,
        value: valueWord?.text ?? null,
        valueRaw: valueWord === null ? null : eq >= 0 ? word.raw : valueWord.raw,
        valueWord,
        word,
      });
      continue;
    }
    for (const c of t.slice(1)) {
      const valueWord = TREE_VALUE.includes(c) ? nextFree() : null;
      out.push({
        kind: 'short',
        name: c,
        value: valueWord?.text ?? null,
        valueRaw: valueWord?.raw ?? null,
        valueWord,
        word,
      });
    }
  }
  return out;
}
