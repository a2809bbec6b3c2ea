/**
 * The run views' pure logic: a step's status and badges for the timeline, all its notes in
 * one list, the spans of a text that the engine or the context budget cut (so they can be
 * marked), the budget bar's segments, and the series the small plots draw.
 */
import type { Budget, LoopNoteKind, NoteKind, RunInfo, Step, StepRecord } from '../../worker/client.ts';
import { resultStatus, type ResultStatus } from '../shared/explain.ts';

/** ok / refused / failed for a tool result; no-call when the reply held no usable call. */
export type StepStatus = ResultStatus | 'no-call';

export function stepStatus(step: Step): StepStatus {
  if (!step.result) return 'no-call';
  return resultStatus(step.result);
}

export const STATUS_LABEL: Readonly<Record<StepStatus, string>> = {
  ok: 'ok',
  refused: 'refused',
  repeated: 'not run',
  failed: 'failed',
  'no-call': 'no call',
};

/**
 * Whose answer a step's approval is, for the inspector: a live step's is the person's; a
 * replayed step's record is history (never "by you"), and what happened here is said apart.
 */
export function approvalText(record: StepRecord): string | null {
  const here = record.step.approval;
  if (!record.check)
    return here === 'unasked' ? 'not run: no one was there to approve it' : here ? `${here} by you` : null;
  const then = record.recordedApproval;
  const history = then && RECORDED_APPROVAL[then];
  const now =
    here === 'unapproved'
      ? 'not run here: it needs your approval'
      : here === 'denied' || here === 'unasked'
        ? `${here === 'denied' ? 'denied' : 'not run'} again here`
        : then
          ? 'ran here without asking (a replay needs no approval for it)'
          : null;
  return [history, now].filter((t) => t).join(' · ') || null;
}

const RECORDED_APPROVAL: Readonly<Record<NonNullable<StepRecord['recordedApproval']>, string>> = {
  approved: 'approved when it was recorded (not by you)',
  denied: 'denied when it was recorded',
  unapproved: 'not approved when it was recorded either',
  unasked: 'not run when it was recorded: no one was there to approve it',
};

/** What the step called, for a one-word label. */
export function stepTool(step: Step): string {
  return step.call?.tool ?? 'no call';
}

/** The ladder rungs that matched in this step (e.g. `indent`). */
export function rungsOf(step: Step): string[] {
  return (step.result?.notes ?? []).filter((n) => n.kind === 'rung').map((n) => n.detail ?? n.text);
}

/** One note of a step, whoever made it: the engine (in the tool result) or the loop. */
export interface StepNote {
  readonly kind: NoteKind | LoopNoteKind;
  readonly text: string;
  readonly detail?: string;
  readonly source: 'engine' | 'loop';
}

/** The loop's approval outcome each engine refusal already tells (the person's no, or no approval in a replay). */
const TOLD_BY_REFUSAL: Readonly<Record<string, string>> = {
  'approval-denied': 'denied',
  'approval-unapproved': 'unapproved',
};

/**
 * The engine's notes first (what the tool call did), then the loop's (what happened around it),
 * each event once: a policy refusal is the shell note and its refusal note (the refusal kept,
 * with the policy's whole reason), and a declined or unapproved call is the engine's refusal
 * and the loop's approval note (the refusal kept).
 */
export function stepNotes(step: Step): StepNote[] {
  const engine = step.result?.notes ?? [];
  const refusals = engine.filter((n) => n.kind === 'refusal');
  const told = new Set(refusals.map((n) => TOLD_BY_REFUSAL[n.detail ?? '']).filter((d) => d !== undefined));
  const policyOf = (r: (typeof engine)[number]) =>
    engine.find((n) => n.kind === 'shell' && n.detail === 'refuse' && r.text && n.text.startsWith(r.text));
  const merged = engine.flatMap((n) => {
    if (n.kind === 'shell' && refusals.some((r) => policyOf(r) === n)) return [];
    const policy = n.kind === 'refusal' ? policyOf(n) : undefined;
    return [{ ...n, ...(policy && { text: policy.text }), source: 'engine' as const }];
  });
  return [
    ...merged,
    ...step.notes
      .filter((n) => !(n.kind === 'approval' && n.detail !== undefined && told.has(n.detail)))
      .map((n) => ({ ...n, source: 'loop' as const })),
  ];
}

/** Note kinds worth a badge on the timeline: the ones that mean the ACI stepped in. */
const BADGE_KINDS: ReadonlySet<string> = new Set([
  'rung',
  'gutter-stripped',
  'refusal',
  'loop-guard',
  'syntax-revert',
  'stall',
  'dropped-calls',
  'parse-retry',
  'observation-cut',
  'reply-cut',
  'context-retry',
  'truncated',
  'schema',
  'alias',
  'limit',
]);

export function badgeNotes(step: Step): StepNote[] {
  const seen = new Set<string>();
  return stepNotes(step).filter((n) => BADGE_KINDS.has(n.kind) && !seen.has(n.kind) && seen.add(n.kind));
}

/** One argument of a parsed call, as the inspector lists it: strings as written (newlines real), anything else as JSON. */
export interface ArgEntry {
  readonly name: string;
  readonly text: string;
  readonly isString: boolean;
}

/** The call's arguments one by one; arguments that are not an object come back as one `(arguments)` entry. */
export function argEntries(args: unknown): ArgEntry[] {
  if (!args || typeof args !== 'object' || Array.isArray(args))
    return [{ name: '(arguments)', text: JSON.stringify(args), isString: false }];
  return Object.entries(args).map(([name, v]) =>
    typeof v === 'string'
      ? { name, text: v, isString: true }
      : { name, text: JSON.stringify(v, null, 2), isString: false },
  );
}

/** A line split into its indentation and the rest, so indentation (where edits drift) can be shown. */
export function indentedLines(text: string): { indent: string; rest: string }[] {
  return text.split('\n').map((line) => {
    const indent = /^[ \t]*/.exec(line)![0];
    return { indent, rest: line.slice(indent.length) };
  });
}

/** Prompt + completion tokens. */
export function stepTokens(step: Step): number {
  return step.tokens.prompt + step.tokens.completion;
}

export function formatMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** An ISO 8601 time as this browser's local date and time ("2 Dec 2026, 05:04"); text that is not a time as it is. */
export function localTime(iso: string): string {
  const t = new Date(iso);
  return Number.isNaN(t.getTime()) ? iso : t.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(0)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}

/** A piece of a text: either as written, or a marker the engine or the budget put where something was cut. */
export interface Span {
  readonly text: string;
  readonly cut: boolean;
}

/**
 * The markers of cut text: the truncation's `… [N characters omitted] …` and its closing note,
 * the budget's elided and omitted steps, and a long call or reply cut in the history.
 */
const CUT_MARKER =
  /… \[\d+ characters omitted\] …|\[output truncated: [^\]\n]*\]|\[observation of step \d+ elided[^\]\n]*\]|\[steps? [\d–]+ omitted[^\]\n]*\]|… \[rest of [^\]\n]*\]/g;

export function markCuts(text: string): Span[] {
  const spans: Span[] = [];
  let at = 0;
  for (const m of text.matchAll(CUT_MARKER)) {
    if (m.index > at) spans.push({ text: text.slice(at, m.index), cut: false });
    spans.push({ text: m[0], cut: true });
    at = m.index + m[0].length;
  }
  if (at < text.length || spans.length === 0) spans.push({ text: text.slice(at), cut: false });
  return spans;
}

export type BudgetPart = 'system' | 'tools' | 'task' | 'history' | 'observation' | 'free' | 'output';

export interface BudgetSegment {
  readonly part: BudgetPart;
  readonly label: string;
  readonly tokens: number;
  /** Share of the window, 0..1. */
  readonly share: number;
}

const BUDGET_LABELS: Readonly<Record<BudgetPart, string>> = {
  system: 'system prompt',
  tools: 'tool cards',
  task: 'task',
  history: 'earlier steps',
  observation: 'latest result',
  free: 'free',
  output: 'kept for the reply',
};

/** The window split into its parts, in the order the prompt is built. */
export function budgetSegments(b: Budget): BudgetSegment[] {
  const parts: [BudgetPart, number][] = [
    ['system', b.system],
    ['tools', b.tools],
    ['task', b.task],
    ['history', b.history],
    ['observation', b.observation],
    ['free', b.free],
    ['output', b.output],
  ];
  return parts.map(([part, tokens]) => ({
    part,
    label: BUDGET_LABELS[part],
    tokens,
    share: b.window > 0 ? tokens / b.window : 0,
  }));
}

/** Tokens of the window the prompt used (everything but free and the reply's reserve). */
export function budgetUsed(b: Budget): number {
  return b.system + b.tools + b.task + b.history + b.observation;
}

/** A task's first line, cut at `max` characters (the last one an ellipsis). */
export function taskLine(task: string, max: number): string {
  const line = task.split('\n', 1)[0]!.trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/**
 * What the run is about, for its header and file names: the template's title; for a replayed
 * session (a lesson, an eval run) its task, since its files are only the record's own; else
 * the person's files.
 */
export function workspaceLabel(info: Pick<RunInfo, 'workspace' | 'replay' | 'task'>): string {
  if (info.workspace.kind === 'template') return info.workspace.title;
  const task = info.replay ? taskLine(info.task, 72) : '';
  return task || `${info.replay ? "the session's files" : 'your files'} (${info.workspace.fileCount})`;
}

/** The first `n` steps, in words: "step 1" or "steps 1–n". */
export function firstSteps(n: number): string {
  return n === 1 ? 'step 1' : `steps 1–${n}`;
}

/** The verdict of a replay that matched: of the whole session, or of the steps a continued run replayed before going live. */
export function reproducedText(checked: number, continues: boolean): string {
  if (!continues) return `✓ Reproduced: all ${checked} replayed step${checked === 1 ? '' : 's'} match the record`;
  return `✓ Reproduced: ${firstSteps(checked)} ${checked === 1 ? 'matches' : 'match'} the record; from step ${checked + 1} the run is live`;
}

/** What each way of counting a budget means, for the budget bar's label. */
export const COUNTING_TITLES: Readonly<Record<Budget['counting'], string>> = {
  counted: "Counted with the model's own tokenizer and chat template",
  calibrated:
    'Estimated, scaled to the prompt sizes the model reported (its usage), with a margin so the count errs high',
  estimated:
    'A conservative estimate (about 2.2 characters a token, so it errs high): the model has not reported how many tokens it read',
};

/** What was done to fit the window, as one sentence ("To fit the window: …; …."), or null when nothing was. */
export function fitText(b: Budget): string | null {
  const steps = (ns: readonly number[]) => `step${ns.length === 1 ? '' : 's'} ${ns.join(', ')}`;
  const parts = [
    ...(b.elided.length ? [`results of ${steps(b.elided)} elided`] : []),
    ...(b.omitted.length ? [`${steps(b.omitted)} left out`] : []),
    ...(b.observationCut ? ['the latest result was cut'] : []),
  ];
  return parts.length ? `To fit the window: ${parts.join('; ')}.` : null;
}

/** One point per step that ran tests. */
export interface TallyPoint {
  readonly index: number;
  readonly passed: number;
  readonly failed: number;
}

export function tallySeries(records: readonly StepRecord[]): TallyPoint[] {
  return records.flatMap(({ step }) =>
    step.tally ? [{ index: step.index, passed: step.tally.passed, failed: step.tally.failed }] : [],
  );
}

/** Share of the window the prompt used, per step. */
export function contextSeries(records: readonly StepRecord[]): { index: number; share: number }[] {
  return records.map(({ step }) => ({
    index: step.index,
    share: step.budget.window > 0 ? budgetUsed(step.budget) / step.budget.window : 0,
  }));
}

/** The rungs used, per step that had any. */
export function rungSeries(records: readonly StepRecord[]): { index: number; rungs: string[] }[] {
  return records.flatMap(({ step }) => {
    const rungs = rungsOf(step);
    return rungs.length ? [{ index: step.index, rungs }] : [];
  });
}

/** A model call as the inspector shows it: one line for each side, then each side in full as JSON. */
export interface ExchangeView {
  readonly requestLine: string;
  readonly responseLine: string;
  readonly request: string;
  readonly response: string;
}

/** The step's model call over the wire, or null when the model is not a server (scripted, in the browser). */
export function exchangeView(step: Step): ExchangeView | null {
  const x = step.exchange;
  if (!x) return null;
  const q = x.request as {
    model?: unknown;
    messages?: { count?: unknown };
    temperature?: unknown;
    seed?: unknown;
    max_tokens?: unknown;
    stream?: unknown;
    tools?: unknown[];
    response_format?: unknown;
  };
  const r = x.response as {
    finish_reason?: unknown;
    usage?: { prompt_tokens?: unknown; completion_tokens?: unknown };
    tool_calls?: { name?: unknown }[];
    content_chars?: unknown;
  };
  const format = q.tools
    ? `tools (${q.tools.length}), tool_choice auto`
    : q.response_format
      ? 'response_format json_schema'
      : 'no schema';
  const requestLine = [
    `model ${String(q.model)}`,
    `${String(q.messages?.count)} messages`,
    `temperature ${String(q.temperature)}`,
    `seed ${String(q.seed)}`,
    ...(q.max_tokens !== undefined ? [`max_tokens ${String(q.max_tokens)}`] : []),
    format,
    q.stream ? 'streamed' : 'not streamed',
  ].join(' · ');
  const responseLine = [
    `finish_reason ${r.finish_reason === undefined ? '(none)' : String(r.finish_reason)}`,
    r.usage
      ? `usage ${String(r.usage.prompt_tokens)} prompt + ${String(r.usage.completion_tokens)} completion tokens`
      : 'no usage reported',
    r.tool_calls?.length
      ? `tool_calls: ${r.tool_calls.map((c) => String(c.name)).join(', ')}`
      : `content (${String(r.content_chars ?? 0)} characters)`,
  ].join(' · ');
  return {
    requestLine,
    responseLine,
    request: JSON.stringify(x.request, null, 2),
    response: JSON.stringify(x.response, null, 2),
  };
}
