/**
 * When a replayed command step counts as equivalent to its record although its output is not
 * byte for byte the same. Backends legitimately print a test run differently — real Node
 * prints its own stack frames and internal paths, the browser's JavaScript sandbox a one-line
 * stack; timings differ everywhere; WebContainer keeps the workspace in its home directory — so
 * a command step run on another backend is compared by what the run depends on: its exit code, its parsed tally and
 * the names of its failing tests (the step's *facts*), with the workspace root read as
 * WORKSPACE_PATH. The workspace after the step must be the same as well (the checker compares
 * its hash). On the same backend only numbers (timings) may differ. A share link carries no outputs, so a record keeps the facts' short hash
 * (`shellFacts`) and a replay compares that.
 */
import { structuredPatch } from 'diff';
import { firstFailures, parseTestTally } from '../engine/tally.ts';
import { WORKSPACE_PATH } from '../engine/workspace.ts';
import { shortHash } from './hash.ts';
import type { RecordedStep } from './record.ts';

/** What a command step's output says that the run depends on. */
export interface CommandFacts {
  /** The last exit code the output names (`[exit code 1]`, `(exit code 1)`, `timed out`), or null. */
  readonly exit: string | null;
  readonly passed: number | null;
  readonly failed: number | null;
  /** The failing tests the output names, in order. */
  readonly failing: readonly string[];
}

/** Failing test names a fact list keeps at most. */
const MAX_FAILING = 50;

/** `text` with the workspace root as commands saw it (`root`) written as WORKSPACE_PATH. */
export function normaliseRoot(text: string, root: string | undefined): string {
  return root === undefined || root === WORKSPACE_PATH ? text : text.split(root).join(WORKSPACE_PATH);
}

/** The facts of a command step's output (after `normaliseRoot`). */
export function commandFacts(output: string): CommandFacts {
  const exits = [...output.matchAll(/\bexit code (-?\d+|none)\b|\b(timed out)\b/g)];
  const last = exits.at(-1);
  const tally = parseTestTally(output, 'replay');
  return {
    exit: last ? (last[1] ?? last[2]!) : null,
    passed: tally?.passed ?? null,
    failed: tally?.failed ?? null,
    failing: failingNames(output),
  };
}

/**
 * ws_test lists its first failures under `First failures:` (`  1. name`): those names, as the
 * model saw them; any other output, the failures the tally parser finds in it.
 */
function failingNames(output: string): string[] {
  const at = output.indexOf('\nFirst failures:\n');
  if (at >= 0) {
    const names: string[] = [];
    for (const line of output.slice(at + '\nFirst failures:\n'.length).split('\n')) {
      const m = /^ {2}\d+\. (.*)$/.exec(line);
      if (m) names.push(m[1]!);
      else if (!/^ {3,}/.test(line)) break;
    }
    return names.slice(0, MAX_FAILING);
  }
  return firstFailures(output, MAX_FAILING).map((f) => f.name);
}

/** The short hash a record keeps of a command step's facts (`shellFacts`). */
export function factsHash(output: string, root?: string): Promise<string> {
  return shortHash(JSON.stringify(commandFacts(normaliseRoot(output, root))));
}

/** A command step that replayed as equivalent: why, and how its output differs. */
export interface Equivalence {
  /** One sentence: what is the same, what differs and where each ran. */
  readonly why: string;
  /** A line diff of the two outputs (`-` recorded, `+` replayed), when the record has the output. */
  readonly diff?: string;
  /** Where the step was recorded and where it was replayed, e.g. `memory with the browser's JavaScript sandbox`. */
  readonly recordedOn: string;
  readonly replayedOn: string;
}

/** How a step's backend is named: its kind, and the runtime its programs ran on when known. */
export function backendName(step: Pick<RecordedStep, 'backend' | 'runtime'>): string {
  const kind = step.backend ?? 'unknown';
  return step.runtime ? `${kind} with ${step.runtime}` : kind;
}

/**
 * Whether a replayed command step is equivalent to its record: both ran a command, the
 * record's facts (from its output, or its `shellFacts` hash when a link left the output out)
 * equal the replay's, and the outputs are not already equal. Null when the record cannot tell
 * (an older link with neither) or the facts differ. The caller checks the workspace hash.
 */
export async function commandEquivalence(expected: RecordedStep, actual: RecordedStep): Promise<Equivalence | null> {
  if (actual.shellOutput === undefined || expected.backend === undefined) return null;
  const replayed = normaliseRoot(actual.shellOutput, actual.root);
  let same: boolean;
  if (expected.shellOutput !== undefined) {
    const recorded = normaliseRoot(expected.shellOutput, expected.root);
    same = JSON.stringify(commandFacts(recorded)) === JSON.stringify(commandFacts(replayed));
  } else if (expected.shellFacts !== undefined) same = expected.shellFacts === (await factsHash(replayed));
  else return null;
  if (!same) return null;
  const recordedOn = backendName(expected);
  const replayedOn = backendName(actual);
  // On the same backend only timings may differ: other text there is not a backend's doing.
  if (recordedOn === replayedOn && !numbersOnly(expected, actual)) return null;
  const facts = commandFacts(replayed);
  const tally = facts.passed !== null ? `, the same tally (${facts.passed} passed, ${facts.failed} failed)` : '';
  const failing = facts.failing.length ? `, the same failing tests (${facts.failing.join('; ')})` : '';
  const roots =
    expected.root !== actual.root
      ? ` Paths were compared with the workspace root read as ${WORKSPACE_PATH} (${[expected.root, actual.root].filter(Boolean).join(' and ')}).`
      : '';
  const where = recordedOn === replayedOn ? `on ${recordedOn}` : `recorded on ${recordedOn}, replayed on ${replayedOn}`;
  return {
    why:
      `The command printed other text (${where}) with the same exit code (${facts.exit ?? 'none named'})${tally}${failing} and the same workspace after it: ` +
      `the output differs only where backends differ (their own stack frames and paths, timings).${roots}`,
    ...(expected.shellOutput !== undefined && {
      diff: lineDiff(normaliseRoot(expected.shellOutput, expected.root), replayed),
    }),
    recordedOn,
    replayedOn,
  };
}

/** Whether two command outputs differ only in their numbers (root-normalised); false when the record has no output. */
export function numbersOnly(expected: RecordedStep, actual: RecordedStep): boolean {
  if (expected.shellOutput === undefined || actual.shellOutput === undefined) return false;
  const digits = /\d+(?:\.\d+)?/g;
  const a = normaliseRoot(expected.shellOutput, expected.root).replace(digits, '#');
  return a === normaliseRoot(actual.shellOutput, actual.root).replace(digits, '#');
}

/** Lines of a diff an equivalence keeps. */
const DIFF_LINES = 60;

/** The changed lines of `before` → `after` with one line of context, `@@` between hunks, at most DIFF_LINES lines. */
export function lineDiff(before: string, after: string): string {
  const patch = structuredPatch('recorded', 'replayed', before, after, '', '', { context: 1 });
  const out: string[] = [];
  for (const h of patch.hunks) {
    out.push(
      `@@ recorded line ${h.oldStart}, replayed line ${h.newStart} @@`,
      ...h.lines.filter((l) => !l.startsWith('\\')),
    );
  }
  if (out.length <= DIFF_LINES) return out.join('\n');
  return [...out.slice(0, DIFF_LINES), `… ${out.length - DIFF_LINES} more diff lines`].join('\n');
}
