/**
 * Option scanning as getopt does it, so a flag is found however it is spelled: bundled short
 * options (`-uo file` holds `-o`), attached values (`-ofile`, `-i.bak`), `--name=value`, values
 * in the next word, `--` ending the options, and GNU's abbreviated long options (`--compress-prog`
 * is `--compress-program`). Matching a refused long option is always by prefix, so an
 * abbreviation can never slip past a check.
 */
import type { Word } from './words.ts';

/** How one command's options are spelled: which take values, and whether options end at the first operand. */
export interface OptionSpec {
  /** Short options that take a value, attached (`-ofile`) or as the next word. */
  readonly shortValue?: string;
  /** Short options whose value is optional and can only be attached (`sed -i[SUFFIX]`). */
  readonly shortOptional?: string;
  /** Long options that take a value, as `--name=v` or the next word (full names, no dashes). */
  readonly longValue?: readonly string[];
  /** Options end at the first operand (POSIX utilities, and commands whose operands are a command line). */
  readonly stopAtOperand?: boolean;
}

/** An option as scanned: `-x` (one letter, also from a bundle) or `--name`, with its value if it took one. */
export interface OptionToken {
  readonly kind: 'short' | 'long';
  readonly name: string;
  readonly value: string | null;
  /** The source text the value came from: the option word itself when attached, else the next word. */
  readonly valueRaw: string | null;
  /** The value as a word (quoting kept, so a pattern in it is seen), when there is one. */
  readonly valueWord: Word | null;
  /** The word the option was written in (for messages). */
  readonly word: Word;
}

/** A word that is not an option: a file, a pattern, a subcommand, a script. */
export interface OperandToken {
  readonly kind: 'operand';
  readonly text: string;
  readonly word: Word;
  /** Its index among the scanned words. */
  readonly index: number;
}

/** One scanned argument. */
export type Token = OptionToken | OperandToken;

/** True when `written` (a long name as typed) selects `full`: exactly, or as an abbreviation of it. */
export function longSelects(written: string, full: string): boolean {
  return written.length > 0 && full.startsWith(written);
}

/** The part of a word from `start` on, as a word of its own (an attached option value). */
export function tail(word: Word, start: number): Word {
  return { text: word.text.slice(start), raw: word.raw, quoted: word.quoted.slice(start), plain: word.plain };
}

/** Splits the arguments after a command name into options and operands. */
export function scanOptions(args: readonly Word[], spec: OptionSpec): Token[] {
  const out: Token[] = [];
  const shortValue = spec.shortValue ?? '';
  const shortOptional = spec.shortOptional ?? '';
  const longValue = spec.longValue ?? [];
  let optionsDone = false;
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    const t = word.text;
    if (optionsDone || t === '-' || !t.startsWith('-')) {
      out.push({ kind: 'operand', text: t, word, index: i });
      if (spec.stopAtOperand) optionsDone = true;
      continue;
    }
    if (t === '--') {
      optionsDone = true;
      continue;
    }
    if (t.startsWith('--')) {
      const eq = t.indexOf('=');
      const name = eq < 0 ? t.slice(2) : t.slice(2, eq);
      let valueWord: Word | null = eq < 0 ? null : tail(word, eq + 1);
      // The next word is the value only when the name surely takes one (exact, or a unique abbreviation).
      const takers = longValue.filter((l) => longSelects(name, l));
      if (valueWord === null && (longValue.includes(name) || takers.length === 1) && i + 1 < args.length)
        valueWord = args[++i]!;
      const valueRaw = valueWord === null ? null : eq < 0 ? valueWord.raw : word.raw;
      out.push({ kind: 'long', name, value: valueWord?.text ?? null, valueRaw, valueWord, word });
      continue;
    }
    for (let j = 1; j < t.length; j++) {
      const c = t[j]!;
      if (shortValue.includes(c)) {
        const attached = j + 1 < t.length;
        const valueWord = attached ? tail(word, j + 1) : i + 1 < args.length ? args[++i]! : null;
        out.push({
          kind: 'short',
          name: c,
          value: valueWord?.text ?? null,
          valueRaw: attached ? word.raw : (valueWord?.raw ?? null),
          valueWord,
          word,
        });
        break;
      }
      if (shortOptional.includes(c)) {
        const valueWord = j + 1 < t.length ? tail(word, j + 1) : null;
        out.push({
          kind: 'short',
          name: c,
          value: valueWord?.text ?? null,
          valueRaw: valueWord === null ? null : word.raw,
          valueWord,
          word,
        });
        break;
      }
      out.push({ kind: 'short', name: c, value: null, valueRaw: null, valueWord: null, word });
    }
  }
  return out;
}

/** The first long option selecting any of `names` (abbreviations included). */
export function findLong(tokens: readonly Token[], names: readonly string[]): OptionToken | undefined {
  return tokens.find((t): t is OptionToken => t.kind === 'long' && names.some((n) => longSelects(t.name, n)));
}

/** The first short option among `letters`. */
export function findShort(tokens: readonly Token[], letters: string): OptionToken | undefined {
  return tokens.find((t): t is OptionToken => t.kind === 'short' && letters.includes(t.name));
}

/** Every option among `letters` or selecting one of `names`, in order. */
export function findAll(tokens: readonly Token[], letters: string, names: readonly string[]): OptionToken[] {
  return tokens.filter(
    (t): t is OptionToken =>
      (t.kind === 'short' && letters.includes(t.name)) ||
      (t.kind === 'long' && names.some((n) => longSelects(t.name, n))),
  );
}

/** The operands among scanned tokens, in order. */
export function operands(tokens: readonly Token[]): OperandToken[] {
  return tokens.filter((t): t is OperandToken => t.kind === 'operand');
}

/** How an option token reads in a message: the word it came from. */
export function shown(t: Token): string {
  return t.word.raw;
}
