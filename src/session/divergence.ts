/**
 * Where a replayed step parts from its record, and why: the result the model saw changed, a
 * shell step's backend-dependent output differs, the workspace after the step differs
 * although the result matched, or a gated step did not run because nobody approved it here.
 * Each comes with a short diff of the first differing lines when the record carries the
 * expected text (a shared link carries shell output, not result texts).
 */
import type { Step } from '../agent/step.ts';
import type { RecordedStep } from './record.ts';

/** `approval`: a replayed gated step that could not run, because a replay approves nothing. */
export type DivergenceKind = 'start' | 'result' | 'shell' | 'workspace' | 'missing' | 'approval';

/** How a step mark names a divergence: `✗ shell differs`, or `✗ not run without approval`. */
export function divergenceLabel(kind: DivergenceKind): string {
  return kind === 'approval' ? 'not run without approval' : `${kind} differs`;
}

export interface Divergence {
  /** The step (1-based); 0 when the replay could not start. */
  readonly index: number;
  readonly kind: DivergenceKind;
  /** One or two sentences for a person: what differs and the likely cause. */
  readonly why: string;
  /** `- expected` / `+ actual` lines around the first difference, when the expected text is known. */
  readonly diff?: string;
}

/** Lines of each side a diff shows, and characters per line. */
const DIFF_LINES = 3;
const LINE_CHARS = 160;

/** Compares one replayed step with its record; undefined when it reproduced. */
export function compareSteps(
  index: number,
  expected: RecordedStep,
  actual: RecordedStep,
  step: Step,
  versionNote: string,
  replayRunsCommands = true,
): Divergence | undefined {
  const tool = step.call ? ` (${step.call.tool})` : '';
  if (expected.resultHash !== actual.resultHash) {
    const shell = shellDifference(expected, actual);
    if (shell) {
      const where = !replayRunsCommands
        ? `recorded on the ${expected.backend ?? 'unknown'} backend and replayed on ${actual.backend}, in a workspace that runs no commands (a replay runs a session's code only inside the OS sandbox, and there was none), and the output differs`
        : expected.backend !== actual.backend
          ? `recorded on the ${expected.backend ?? 'unknown'} backend and replayed on ${actual.backend}, and the output differs`
          : shell === 'numbers'
            ? `recorded and replayed on the ${actual.backend} backend, and the outputs differ only in their numbers (timings, say): the command's output is not deterministic`
            : `recorded and replayed on the ${actual.backend} backend, and the recorded output differs from what the command printed here: ${ALTERED}`;
      return {
        index,
        kind: 'shell',
        why: `Step ${index}${tool} ran a command whose output depends on the backend: ${where}.${versionNote}`,
        ...(expected.shellOutput !== undefined &&
          actual.shellOutput !== undefined && { diff: shortDiff(expected.shellOutput, actual.shellOutput) }),
      };
    }
    if (expected.resultText === step.observation) {
      return {
        index,
        kind: 'result',
        why: `Step ${index}${tool} gave exactly the recorded result text, but the record's hash of it (${expected.resultHash}) is not its hash (${actual.resultHash}): the record was edited after it was made.`,
      };
    }
    if (expected.resultText !== undefined) {
      return {
        index,
        kind: 'result',
        why: `Step ${index}${tool} gave a different result from the recorded one.${versionNote}`,
        diff: shortDiff(expected.resultText, step.observation),
      };
    }
    return {
      index,
      kind: 'result',
      why:
        `Step ${index}${tool} gave a result whose hash (${actual.resultHash}) is not the recorded ${expected.resultHash}: the recorded result differs from what this engine produced, so ${ALTERED}.${versionNote} ` +
        'This record carries no result texts (a shared link leaves them out), so only the replayed text is shown; the session file has both.',
      diff: firstLines(step.observation, '+ '),
    };
  }
  if (expected.workspaceHash !== actual.workspaceHash) {
    const touched = step.result?.changes.map((c) => c.path) ?? [];
    const files = touched.length ? ` This step changed ${touched.join(', ')}.` : '';
    return {
      index,
      kind: 'workspace',
      why: `Step ${index}${tool} gave the recorded result, but the workspace after it differs (hash ${actual.workspaceHash}, recorded ${expected.workspaceHash}).${files}${versionNote}`,
    };
  }
  return undefined;
}

/** Why a recorded result and a replayed one differ when the same engine and backend made both. */
const ALTERED = 'the session was altered after it was recorded, or made by another version of the engine';

/**
 * How a shell step's recorded output and the replay's differ: `numbers` when only their numbers
 * do (timings: the command is not deterministic), `text` otherwise; null when they agree, or
 * when the record carries neither the output nor its hash. A link carries only the hash.
 */
function shellDifference(expected: RecordedStep, actual: RecordedStep): 'numbers' | 'text' | null {
  if (expected.shellOutput !== undefined && actual.shellOutput !== undefined) {
    if (expected.shellOutput === actual.shellOutput) return null;
    const digits = /\d+(?:\.\d+)?/g;
    return expected.shellOutput.replace(digits, '#') === actual.shellOutput.replace(digits, '#') ? 'numbers' : 'text';
  }
  if (expected.shellHash !== undefined && actual.shellHash !== undefined && expected.shellHash !== actual.shellHash)
    return 'text';
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
