/**
 * What the model sees of a command's run: terminal escapes stripped, carriage-return redraws
 * resolved, the output bounded to head + tail with steering text, the exit code named, a
 * timeout said as such, and empty output reported explicitly — never an empty string the
 * model has to interpret. Shared by ws_shell and ws_test.
 */
import type { Note } from './result.ts';
import type { ExecResult } from './workspace.ts';
import { truncateHeadTail } from './truncate.ts';

/**
 * ESC-introduced sequences: CSI (`ESC [ … final`, colours and cursor moves), OSC (`ESC ] … BEL`
 * or `ESC \`, titles and hyperlinks), and two-character escapes (`ESC 7`, `ESC =` …); the 8-bit
 * CSI `\x9b` too.
 */
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x9b[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[ -/]*[0-~]/g;

/** Removes terminal escape sequences (colours, cursor moves, titles). */
export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

/**
 * Terminal output as a person would read it: escapes removed, CRLF as LF, and a line redrawn
 * with `\r` (progress bars, spinners) reduced to what was drawn last.
 */
export function cleanOutput(text: string): string {
  return stripAnsi(text)
    .replace(/\r+\n/g, '\n')
    .split('\n')
    .map((line) => (line.includes('\r') ? line.slice(line.lastIndexOf('\r') + 1) : line))
    .join('\n');
}

/** Timing-only lines of test runners: TAP's `duration_ms`, vitest's `Start at`/`Duration`, jest's `Time:`. */
const TIMING_LINE =
  /^\s*(?:#\s*)?duration_ms:?\s+[\d.]+\s*$|^\s*(?:Start at|Duration)\s{2,}\S.*$|^\s*Time:\s+[\d.]+\s*m?s\b.*$/;

/** unittest's summary line, whose count stays and whose time goes: `Ran 4 tests in 0.002s`. */
const UNITTEST_RAN = /^(Ran \d+ tests?) in [\d.]+s$/;

/**
 * Drops the lines of a test runner's output that only say how long things took, the time from
 * unittest's `Ran N tests in Ts`, and the TAP YAML blocks (`---` … `...`) left empty by that. A
 * model can do nothing with timings, they take context a small model needs, and they change
 * from run to run, which would make every recorded test result differ on replay.
 */
export function dropTimingLines(text: string): string {
  const kept = text
    .split('\n')
    .filter((line) => !TIMING_LINE.test(line))
    .map((line) => line.replace(UNITTEST_RAN, '$1'));
  const out: string[] = [];
  for (let i = 0; i < kept.length; i++) {
    if (kept[i]!.trim() === '---' && kept[i + 1]?.trim() === '...') {
      i++;
      continue;
    }
    out.push(kept[i]!);
  }
  return out.join('\n');
}

/** What a step's commands ran on, when one said (its `runtime` note, from ExecResult.runtime), else undefined. */
export function stepRuntime(notes: readonly { readonly text: string; readonly detail?: string }[]): string | undefined {
  return notes.find((n) => n.detail === 'runtime')?.text.replace(/^ran on /, '');
}

export interface ExecView {
  /** The text for the model. */
  readonly text: string;
  /** What happened, for the inspector: truncation, timeout, the backend's own note. */
  readonly notes: Note[];
}

export interface ExecViewOptions {
  /** The command as the model wrote it, quoted in the empty-output messages. */
  readonly command: string;
  /** The timeout the command ran under, in ms. */
  readonly timeoutMs: number;
  /** The largest timeout a call may ask for, named in the timeout message. */
  readonly timeoutCapMs: number;
  /** Characters the output may take; head and tail are kept beyond it. */
  readonly budget: number;
}

/** Renders one run for the model, with notes saying what was cut, killed or special about the backend. */
export function viewExec(r: ExecResult, o: ExecViewOptions): ExecView {
  const notes: Note[] = [];
  if (r.backendNote) notes.push({ kind: 'shell', text: r.backendNote, detail: 'backend' });
  if (r.runtime) notes.push({ kind: 'shell', text: `ran on ${r.runtime}`, detail: 'runtime' });
  const output = cleanOutput(r.output).replace(/\n+$/, '');
  const parts: string[] = [];

  if (output.trim() === '') {
    parts.push(emptyMessage(r, o.command));
    // 126/127: the command could not run at all, and the backend's note says why.
    if (r.backendNote && (r.exitCode === 126 || r.exitCode === 127)) parts.push(`[${r.backendNote}]`);
  } else {
    // Output capped while it ran and cut again here is told once, with what the command wrote in all.
    const cut = truncateHeadTail(output, o.budget, r.truncated ? r.totalBytes : undefined);
    parts.push(cut.text);
    if (cut.truncated)
      notes.push({
        kind: 'truncated',
        text: `output cut to ${o.budget} of ${cut.total} characters`,
        detail: String(cut.total),
      });
    if (r.truncated) {
      if (!cut.truncated)
        parts.push(
          `[the command wrote ${r.totalBytes} bytes of output; only its beginning and end were kept while it ran. ` +
            'Narrow the command (grep for what you need, head or tail, a single test file) to see the middle.]',
        );
      notes.push({
        kind: 'truncated',
        text: `output capped while running: ${r.totalBytes} bytes written`,
        detail: String(r.totalBytes),
      });
    }
    if (r.exitCode !== null) parts.push(`[exit code ${r.exitCode}]`);
  }

  if (r.timedOut) {
    parts.push(timeoutMessage(o.timeoutMs, o.timeoutCapMs));
    notes.push({ kind: 'shell', text: `timed out after ${o.timeoutMs} ms; process tree killed`, detail: 'timeout' });
  } else if (r.exitCode === null) {
    parts.push('[cancelled: the command was stopped before it finished, and every process it started was killed.]');
  }
  return { text: parts.join('\n'), notes };
}

/** The explicit message for a run that printed nothing. */
function emptyMessage(r: ExecResult, command: string): string {
  if (r.timedOut) return `(command produced no output before it timed out: ${command})`;
  if (r.exitCode === 0) return `(command succeeded with no output: ${command})`;
  if (r.exitCode === null) return `(command was stopped with no output: ${command})`;
  return `(command failed with exit code ${r.exitCode} and no output: ${command})`;
}

/** The last `n` lines of `text` (all of it when shorter), and how many lines there were. */
export function lastLines(text: string, n: number): { text: string; total: number } {
  const lines = text.replace(/\n+$/, '').split('\n');
  return { text: lines.slice(-n).join('\n'), total: lines.length };
}

function timeoutMessage(timeoutMs: number, capMs: number): string {
  const more = timeoutMs < capMs ? ` or pass a larger timeout_ms (at most ${capMs})` : '';
  return (
    `[timed out after ${seconds(timeoutMs)}: the command and every process it started were killed. ` +
    `Run a narrower command (a single test file, a test name pattern)${more}; an endless loop in the code needs a fix, not more time.]`
  );
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
