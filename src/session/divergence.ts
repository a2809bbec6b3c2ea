/**
 * Where a replayed step parts from its record, and its true cause. A step is *identical* (the
 * same result, byte for byte, and the same workspace), *equivalent* (a command step whose output
 * differs only where backends differ: the same exit code, tally, failing tests and workspace —
 * equivalence.ts), or *diverged*, with the cause the replay can prove, in this order: a setting
 * that differs from the record (named, with both values), the backend (named, both sides), the
 * engine version (both named), a command whose output differs only in its numbers
 * (nondeterministic), and — only when none of these explains it and the record's own texts do
 * not hash to its hashes — an altered record. What none explains is said as unexplained, never
 * blamed on the record. Each comes with a short diff where the record carries the expected text
 * (a shared link carries neither result texts nor command output).
 */
import type { Step } from '../agent/step.ts';
import { backendName, commandEquivalence, numbersOnly, type Equivalence } from './equivalence.ts';
import { shortHash } from './hash.ts';
import type { RecordedStep } from './record.ts';

/** `approval`: a replayed gated step that could not run, because a replay approves nothing. */
export type DivergenceKind = 'start' | 'result' | 'shell' | 'workspace' | 'missing' | 'approval';

/** The cause a divergence names; `no-runner`: the replay's workspace runs no commands. */
export type DivergenceCause =
  'settings' | 'backend' | 'version' | 'nondeterministic' | 'altered' | 'unexplained' | 'no-runner';

/** How a step mark names a divergence: `✗ shell differs`, or `✗ not run without approval`. */
export function divergenceLabel(kind: DivergenceKind): string {
  return kind === 'approval' ? 'not run without approval' : `${kind} differs`;
}

export interface Divergence {
  /** The step (1-based); 0 when the replay could not start. */
  readonly index: number;
  readonly kind: DivergenceKind;
  /** One or two sentences for a person: what differs and its cause. */
  readonly why: string;
  /** The cause `why` names, for a differing step. */
  readonly cause?: DivergenceCause;
  /** `- expected` / `+ actual` lines around the first difference, when the expected text is known. */
  readonly diff?: string;
}

/** One engine setting whose value here is not the record's. */
export interface SettingChange {
  readonly name: string;
  readonly recorded: string;
  readonly now: string;
}

/** The settings of `now` whose values differ from `recorded`, by name, both values as JSON. */
export function settingChanges(
  recorded: Readonly<Record<string, unknown>>,
  now: Readonly<Record<string, unknown>>,
): SettingChange[] {
  const out: SettingChange[] = [];
  for (const name of Object.keys({ ...recorded, ...now })) {
    const a = JSON.stringify(recorded[name]);
    const b = JSON.stringify(now[name]);
    if (a !== b) out.push({ name, recorded: a ?? 'unset', now: b ?? 'unset' });
  }
  return out;
}

/** What a comparison knows beyond the two steps. */
export interface CompareContext {
  readonly versions: { readonly recorded: string; readonly replay: string };
  /** Engine settings of this replay that differ from the record's (a what-if re-run). */
  readonly settingChanges: readonly SettingChange[];
  /** False when the replay's workspace can run no command. */
  readonly runsCommands: boolean;
}

/** How a replayed step compares with its record. */
export type StepComparison =
  | { readonly level: 'identical' }
  | { readonly level: 'equivalent'; readonly equivalence: Equivalence }
  | { readonly level: 'diverged'; readonly divergence: Divergence };

/** Lines of each side a diff shows, and characters per line. */
const DIFF_LINES = 3;
const LINE_CHARS = 160;

/** Compares one replayed step with its record. */
export async function compareSteps(
  index: number,
  expected: RecordedStep,
  actual: RecordedStep,
  step: Step,
  ctx: CompareContext,
): Promise<StepComparison> {
  const sameResult = expected.resultHash === actual.resultHash;
  const sameWorkspace = expected.workspaceHash === actual.workspaceHash;
  if (sameResult && sameWorkspace) return { level: 'identical' };
  const tool = step.call ? ` (${step.call.tool})` : '';
  const shell = expected.backend !== undefined || actual.backend !== undefined;
  if (!sameResult && sameWorkspace && shell && ctx.runsCommands && ctx.settingChanges.length === 0) {
    const equivalence = await commandEquivalence(expected, actual);
    if (equivalence) return { level: 'equivalent', equivalence };
  }
  const cause = await causeOf(expected, actual, step, ctx, shell && !sameResult);
  const diverged = (d: Omit<Divergence, 'index' | 'cause'>): StepComparison => ({
    level: 'diverged',
    divergence: { index, cause: cause.cause, ...d, why: `${d.why} ${cause.text}` },
  });
  if (sameResult) {
    const touched = step.result?.changes.map((c) => c.path) ?? [];
    const files = touched.length ? ` This step changed ${touched.join(', ')}.` : '';
    return diverged({
      kind: 'workspace',
      why: `Step ${index}${tool} gave the recorded result, but the workspace after it differs (hash ${actual.workspaceHash}, recorded ${expected.workspaceHash}).${files}`,
    });
  }
  if (shell) {
    const where =
      backendName(expected) === backendName(actual)
        ? `recorded and replayed on ${backendName(actual)}`
        : `recorded on ${backendName(expected)} and replayed on ${backendName(actual)}`;
    return diverged({
      kind: 'shell',
      why: `Step ${index}${tool} ran a command (${where}), and its result differs from the record.`,
      ...(expected.shellOutput !== undefined &&
        actual.shellOutput !== undefined && { diff: shortDiff(expected.shellOutput, actual.shellOutput) }),
    });
  }
  if (expected.resultText !== undefined)
    return diverged({
      kind: 'result',
      why: `Step ${index}${tool} gave a different result from the recorded one.`,
      diff: shortDiff(expected.resultText, step.observation),
    });
  return diverged({
    kind: 'result',
    why:
      `Step ${index}${tool} gave a result whose hash (${actual.resultHash}) is not the recorded ${expected.resultHash}. ` +
      'This record carries no result texts (a shared link leaves them out), so only the replayed text is shown; the session file has both.',
    diff: firstLines(step.observation, '+ '),
  });
}

/**
 * The cause that explains a difference, checked in order: the replay runs no commands, a
 * setting, the backend (a command step only), the engine version, numbers only (a command
 * step), the record's own hashes; else unexplained.
 */
async function causeOf(
  expected: RecordedStep,
  actual: RecordedStep,
  step: Step,
  ctx: CompareContext,
  commandDiffers: boolean,
): Promise<{ readonly cause: DivergenceCause; readonly text: string }> {
  if (commandDiffers && !ctx.runsCommands)
    return {
      cause: 'no-runner',
      text: "Cause: this replay's workspace runs no commands (a replay runs a session's code only inside the OS sandbox, and there was none), so the command did not run here.",
    };
  if (ctx.settingChanges.length) {
    const named = ctx.settingChanges
      .map((c) => `${c.name} is ${c.now} here and ${c.recorded} in the record`)
      .join('; ');
    return { cause: 'settings', text: `Cause: the settings differ from the record's: ${named}.` };
  }
  if (commandDiffers && backendName(expected) !== backendName(actual))
    return {
      cause: 'backend',
      text: `Cause: the backend differs: the command ran on ${backendName(expected)} when recorded and on ${backendName(actual)} here, and its exit code, tally, failing tests or workspace effect differ too.`,
    };
  const { recorded, replay } = ctx.versions;
  if (recorded !== replay)
    return {
      cause: 'version',
      text: `Cause: the engine version differs: the session was recorded with engine ${recorded} and this is ${replay}.`,
    };
  if (commandDiffers && numbersOnly(expected, actual))
    return {
      cause: 'nondeterministic',
      text: "Cause: the outputs differ only in their numbers (timings, say): the command's output is not deterministic.",
    };
  const broken = await ownHashesBroken(expected);
  if (broken)
    return {
      cause: 'altered',
      text: `Cause: the record was altered after it was made: ${broken}, and neither its settings, backend nor engine version differs here.`,
    };
  const tool = step.call?.tool ?? 'the step';
  return {
    cause: 'unexplained',
    text: `No cause found: the settings, backend and engine version are the record's, and the record's own hashes agree with its texts${expected.resultText === undefined ? ' (a link carries no texts to check)' : ''}, so ${tool} behaved differently here for a reason the record does not capture.`,
  };
}

/** Which of the record's own texts does not hash to its recorded hash, or null. */
async function ownHashesBroken(expected: RecordedStep): Promise<string | null> {
  if (expected.resultText !== undefined && (await shortHash(expected.resultText)) !== expected.resultHash)
    return `its result text does not hash to its result hash (${expected.resultHash})`;
  if (
    expected.shellOutput !== undefined &&
    expected.shellHash !== undefined &&
    (await shortHash(expected.shellOutput)) !== expected.shellHash
  )
    return `its command output does not hash to its output hash (${expected.shellHash})`;
  return null;
}

function clip(line: string): string {
  return line.length <= LINE_CHARS ? line : `${line.slice(0, LINE_CHARS)}…`;
}

function firstLines(text: string, prefix: string): string {
  return text
    .split('\n')
    .slice(0, DIFF_LINES)
    .map((l) => `${prefix}${clip(l)}`)
    .join('\n');
}

/**
 * The first differing line of `expected` and `actual`, with the line before it as context and
 * up to three lines of each side from there: `- ` expected, `+ ` actual.
 */
export function shortDiff(expected: string, actual: string): string {
  const e = expected.split('\n');
  const a = actual.split('\n');
  let i = 0;
  while (i < e.length && i < a.length && e[i] === a[i]) i++;
  const out = [`@@ first difference at line ${i + 1} @@`];
  if (i > 0) out.push(`  ${clip(e[i - 1]!)}`);
  out.push(...e.slice(i, i + DIFF_LINES).map((l) => `- ${clip(l)}`));
  if (i >= e.length) out.push('- (end of text)');
  out.push(...a.slice(i, i + DIFF_LINES).map((l) => `+ ${clip(l)}`));
  if (i >= a.length) out.push('+ (end of text)');
  return out.join('\n');
}
