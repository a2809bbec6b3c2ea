/**
 * The rule for options a tool that runs project code does not list. Test runners, build tools
 * and interpreters add options that load a file as code faster than a table of them can follow
 * (`vitest --runner ./r.js`, `--diff ./d.js`, `--sequence.sequencer s.mjs`, `go vet -vettool ./x`,
 * `cargo test --target ./t.json`), so each tool lists the opposite: the options it has that load
 * nothing — flags, and options whose value is data (a name, a number, a pattern, a test id) —
 * besides the options its own rules already judge (reporters, configs, output files …). Any other
 * option whose value looks like a file is gated, and the prompt says which option names which
 * file. Its value is what any parser could take: `--opt=v`, an attached short value, or the next
 * word when that is not an option.
 */
import { gated, q, type Finding } from './decision.ts';
import { normalizeName } from './runner-options.ts';
import { tail } from './options.ts';
import { writing } from './writers.ts';
import type { Word } from './words.ts';

/** The rule id of this rule's findings, which the runner asks for again once it knows the workspace's files. */
export const OPTION_FILE_RULE = 'option-file';

/** One tool's options that load nothing. */
export interface KnownOptions {
  /**
   * Long options (any spelling: `outputFile`, `output-file`), also `--no-NAME` of each; an entry
   * ending in `.*` covers every dotted option below it (`thresholds.*`).
   */
  readonly long: readonly string[];
  /** Short letters that take no value (a bundle goes on after them). */
  readonly flags?: string;
  /** Short letters that take a value, which is data or judged by the tool's own rules (a bundle ends there). */
  readonly values?: string;
  /**
   * A short option's attached rest is its value, as getopt and argparse read it; otherwise (the
   * JS parsers) both the rest and the next word may be. Letters are case-sensitive either way.
   */
  readonly getopt?: boolean;
  /** Every option is a long one, with one dash or two (Go's flag package: `-vettool`, `--run`). */
  readonly singleDash?: boolean;
}

/** A value that names a file rather than a built-in: it has a slash, starts with a dot, or ends in a file extension. */
export function looksLikePath(value: string): boolean {
  return value.includes('/') || value.startsWith('.') || /\.[A-Za-z][A-Za-z0-9]{0,7}$/.test(value);
}

/** Long names, normalized: exact names, and families whose dotted children are covered too. */
interface LongNames {
  readonly names: ReadonlySet<string>;
  readonly families: readonly string[];
}

/** Each table's long names, normalized once: the tables are constants of several hundred names each. */
const tableNames = new WeakMap<KnownOptions, LongNames>();

function longNamesOf(known: KnownOptions): LongNames {
  let table = tableNames.get(known);
  if (table === undefined) {
    const names = new Set<string>();
    const families: string[] = [];
    for (const n of known.long) {
      if (n.endsWith('.*')) families.push(normalizeName(n.slice(0, -2)));
      else names.add(normalizeName(n));
    }
    table = { names, families };
    tableNames.set(known, table);
  }
  return table;
}

/** Names that cover themselves and their dotted children. */
function familiesOf(names: readonly string[]): LongNames {
  const normalized = names.map(normalizeName);
  return { names: new Set(normalized), families: normalized };
}

function knownLong(name: string, { names, families }: LongNames): boolean {
  if (names.has(name)) return true;
  if (name.startsWith('no') && names.has(name.slice(2))) return true;
  return families.some((f) => name.startsWith(`${f}.`));
}

/**
 * The first option of `args` that `known` (plus `judged`: long names the tool's own rules decide,
 * matched with their dotted children) does not list and whose value looks like a file: gated.
 */
export function unknownOptionFinding(
  tool: string,
  args: readonly Word[],
  known: KnownOptions,
  judged: readonly string[] = [],
): Finding | null {
  const table = longNamesOf(known);
  // The judged names are normalized only once a long option is not in the table.
  let judgedNames: LongNames | null = null;
  const listed = (name: string): boolean =>
    knownLong(name, table) || knownLong(name, (judgedNames ??= familiesOf(judged)));
  const flags = known.flags ?? '';
  const values = known.values ?? '';
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    const t = word.text;
    if (!t.startsWith('-') || t === '-' || t === '--') continue;
    const next = args[i + 1];
    const nextValue = next && !next.text.startsWith('-') ? [next] : [];
    let candidates: readonly Word[] = [];
    if (t.startsWith('--') || known.singleDash) {
      const from = t.startsWith('--') ? 2 : 1;
      const eq = t.indexOf('=');
      if (listed(normalizeName(eq < 0 ? t.slice(from) : t.slice(from, eq)))) continue;
      candidates = eq >= 0 ? [tail(word, eq + 1)] : nextValue;
    } else {
      for (let j = 1; j < t.length; j++) {
        const c = t[j]!;
        if (flags.includes(c)) continue;
        if (values.includes(c)) break;
        const rest = j + 1 < t.length ? [tail(word, t[j + 1] === '=' ? j + 2 : j + 1)] : [];
        candidates = known.getopt && rest.length ? rest : [...rest, ...nextValue];
        break;
      }
    }
    const file = candidates.find((v) => looksLikePath(v.text));
    if (file) {
      return writing(
        gated(
          OPTION_FILE_RULE,
          `${tool} ${q(word.raw)} names the file ${q(file.text)}, which the tool may load and run as code (ws_shell knows no such option of ${tool} as harmless)`,
          'Run without that option if you can; otherwise a person approves it.',
        ),
        [`whatever ${file.text} does when it runs (not known before it runs)`],
      );
    }
  }
  return null;
}
