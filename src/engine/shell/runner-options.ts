/**
 * Option values of test runners and checkers that name a module, a file they write, a directory
 * they read, or open a port. JS runners parse options with mri, yargs, cac or commander, which
 * disagree on details, so every reading any of them could make is checked:
 *
 * - long names match camelCase, kebab-case and snake_case alike (`--outputFile` is
 *   `--output-file`), and by their first dotted part (`--api.port`, `--outputFile.json`;
 *   `--coverage.reportsDirectory` is checked by its full dotted name); none of these parsers
 *   accepts abbreviations;
 * - a value is `--name=value` or the next word;
 * - in a short bundle (`-uc x`, `-cx`) both the attached rest and the next word count as the value.
 *
 * A module-loading option is gated unless its value is one of the runner's built-in names; a
 * writing option goes through the write jail (refused in .git/, .slmcode/ or outside) and is gated
 * with the path listed; a read option must stay in the workspace; a port option is gated.
 */
import { gated, never, q, USE, type Finding } from './decision.ts';
import { tail } from './options.ts';
import { pathFinding, writePathFinding } from './paths.ts';
import { writing } from './writers.ts';
import type { Word } from './words.ts';

/** One option as any of the runners' parsers might read it, with every word that may be its value. */
export interface RunnerOption {
  /** Normalized name: lower case, no `-`/`_`, dotted parts kept (`coverage.reportsdirectory`). */
  readonly name: string;
  readonly word: Word;
  readonly values: readonly Word[];
}

/** `outputFile`, `output-file` and `output_file` all read as `outputfile`. */
export function normalizeName(name: string): string {
  return name
    .split('.')
    .map((p) => p.replace(/[-_]/g, '').toLowerCase())
    .join('.');
}

/**
 * Reads the options of a runner's argument list; `shortNames` maps letters to long names. With
 * `getopt` (argparse, as pytest parses), a short option's attached rest is its value when there
 * is one; otherwise both readings count.
 */
export function readRunnerOptions(
  args: readonly Word[],
  shortNames: Readonly<Record<string, string>>,
  getopt = false,
): RunnerOption[] {
  const out: RunnerOption[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    const t = word.text;
    if (t === '--') continue;
    const next = args[i + 1];
    const nextValue = next && !next.text.startsWith('-') ? [next] : [];
    if (t.startsWith('--')) {
      const eq = t.indexOf('=');
      const name = normalizeName(eq < 0 ? t.slice(2) : t.slice(2, eq));
      out.push({ name, word, values: eq >= 0 ? [tail(word, eq + 1)] : nextValue });
    } else if (t.startsWith('-') && t.length > 1) {
      for (let j = 1; j < t.length; j++) {
        const letter = t[j]!;
        const attached = j + 1 < t.length ? [tail(word, t[j + 1] === '=' ? j + 2 : j + 1)] : [];
        out.push({
          name: normalizeName(shortNames[letter] ?? letter),
          word,
          values: getopt && attached.length ? attached : [...attached, ...nextValue],
        });
      }
    }
  }
  return out;
}

/** What an option does with its value. */
export type OptionKind = 'module' | 'write' | 'read' | 'port' | 'snapshot' | 'never';

export interface OptionRule {
  /** Long names (any spelling; normalized when compared), matched by abbreviation or as the first dotted part. */
  readonly names: readonly string[];
  readonly kind: OptionKind;
  /** For module options: values that name something built into the runner (`no:*` matches a prefix). */
  readonly builtins?: readonly string[];
  /** Completes "`--opt` …" for gated and never findings. */
  readonly why?: string;
  /** For write options whose value is optional: the file written without one (pytest --debug). */
  readonly defaultWrite?: string;
}

/** Each rule's names normalized, once per rule: the tables are constants, and a call may carry many options. */
const normalizedNames = new WeakMap<OptionRule, readonly string[]>();

function namesOf(rule: OptionRule): readonly string[] {
  let names = normalizedNames.get(rule);
  if (names === undefined) {
    names = rule.names.map(normalizeName);
    normalizedNames.set(rule, names);
  }
  return names;
}

/**
 * The runners' parsers take no abbreviations (pytest's argparse runs with allow_abbrev off), so
 * names match exactly: the whole written name, or its leading dotted parts (`api` selects
 * `api.port`; `coverage.reportsdirectory` selects itself and `coverage.reportsdirectory.x`).
 */
function selects(written: string, full: string): boolean {
  return written === full || written.startsWith(`${full}.`);
}

/**
 * Why a module specifier loads code that is not a file in the workspace: a URL or `data:` text
 * (inline code), a path outside; null for a workspace path or a package name.
 */
export function moduleSpecifierFinding(tool: string, option: string, value: string, raw: string): Finding | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(value) && !value.startsWith('node:')) {
    return never(
      'inline-code',
      `${tool} ${q(option)} loads ${q(value)}, code from a URL or inline data: text`,
      USE.inlineCode,
    );
  }
  return value.includes('/') || value.startsWith('.') ? pathFinding(value, raw) : null;
}

/** Where a module name is a path, it is read from the workspace (or refused); a bare name comes from node_modules. */
function moduleFinding(tool: string, o: RunnerOption, v: Word): Finding {
  const outside = moduleSpecifierFinding(tool, o.word.raw, v.text, v.raw);
  if (outside) return outside;
  return writing(
    gated(
      'module-option',
      `${tool} ${q(o.word.raw)} loads the module ${q(v.text)}, which runs as code`,
      'Use a built-in name (reporters such as spec, dot, json, junit), or a person approves it.',
    ),
    ['whatever the loaded module writes (not known before it runs)'],
  );
}

/** The worst finding for one runner call under `rules`: never beats gated; null when every option is harmless. */
export function runnerOptionsFinding(
  tool: string,
  options: readonly RunnerOption[],
  rules: readonly OptionRule[],
): Finding | null {
  let gatedFinding: Finding | null = null;
  const writes: string[] = [];
  for (const o of options) {
    const rule = rules.find((r) => namesOf(r).some((n) => selects(o.name, n)));
    if (!rule) continue;
    let f: Finding | null = null;
    switch (rule.kind) {
      case 'never':
        return never('runner-option', `${tool} ${q(o.word.raw)} ${rule.why ?? 'runs another program'}`, USE.tests);
      case 'read':
        for (const v of o.values) {
          const out = pathFinding(v.text, v.raw);
          if (out) return out;
        }
        break;
      case 'write':
        for (const v of o.values) {
          const bad = writePathFinding(v.text, v.raw, v);
          if (bad) return bad;
        }
        writes.push(...(o.values.length ? o.values.map((v) => v.text) : rule.defaultWrite ? [rule.defaultWrite] : []));
        f = gated('report-file', `${tool} ${q(o.word.raw)} ${rule.why ?? 'writes a report or output file'}`, USE.tests);
        break;
      case 'module': {
        const value = o.values.find(
          (v) =>
            !(rule.builtins ?? []).some((b) => (b.endsWith('*') ? v.text.startsWith(b.slice(0, -1)) : v.text === b)),
        );
        if (value === undefined && o.values.length > 0) break;
        f = value
          ? moduleFinding(tool, o, value)
          : gated('module-option', `${tool} ${q(o.word.raw)} loads a module`, USE.tests);
        if (value && f.tier === 'never') return f;
        break;
      }
      case 'port':
        f = writing(
          gated('opens-port', `${tool} ${q(o.word.raw)} ${rule.why ?? 'opens a port or a browser'}`, USE.tests),
          [],
        );
        break;
      case 'snapshot':
        f = writing(gated('snapshot-update', `${tool} ${q(o.word.raw)} rewrites snapshot files`, USE.tests), [
          'snapshot files next to the tests (__snapshots__/ …)',
        ]);
        break;
    }
    gatedFinding ??= f;
  }
  if (gatedFinding === null) return null;
  return gatedFinding.rule === 'report-file' || writes.length
    ? writing(gatedFinding, [...(gatedFinding.writes ?? []), ...writes])
    : gatedFinding;
}
