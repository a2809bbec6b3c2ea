/**
 * The context budget for small windows (4k tokens), in the model's own tokens (tokens.ts). Each
 * step's prompt is built from fixed parts (system instructions, tool cards, task) and the
 * history of earlier steps; the budget reserves room for the reply and keeps the latest
 * observation (cut head+tail if it alone is too big). Older steps are trimmed in a way a
 * prefix cache can follow: steps up to one boundary lose their observation (a stated elision)
 * and steps up to a second, older boundary are left out (the task message says so). The
 * boundaries only move forward, and only when the history no longer fits; then they move far
 * enough that the history takes at most `TRIM_TO` of its room, so the prompt's beginning stays
 * the same for the next several steps and an engine's KV cache is reused instead of refilled.
 * Every step records the breakdown for a budget bar.
 */
import { CHARS_PER_TOKEN } from '../engine/settings.ts';
import { truncateHeadTail } from '../engine/truncate.ts';
import type { ChatMessage, Counting, TokenCounter } from './model.ts';
import { CalibratedCounter, countMessages } from './tokens.ts';

/** Where the tokens of one prompt went, counted as `counting` says. */
export interface Budget {
  readonly window: number;
  /** Kept free for the reply. */
  readonly output: number;
  readonly system: number;
  readonly tools: number;
  readonly task: number;
  /** Earlier steps, as sent (some elided). */
  readonly history: number;
  /** The latest step's call and observation. */
  readonly observation: number;
  readonly free: number;
  /** Steps whose observation was replaced by the elision text. */
  readonly elided: readonly number[];
  /** Steps left out entirely. */
  readonly omitted: readonly number[];
  /** True when the latest observation itself was cut to fit. */
  readonly observationCut: boolean;
  /** The model's tokenizer, calibrated from its reports, or a conservative estimate. */
  readonly counting: Counting;
}

/** One earlier step as the history holds it. */
export interface Turn {
  readonly index: number;
  /** The assistant message (the model's output cut to its first call). */
  readonly call: string;
  /** The user message that answered it. */
  readonly observation: string;
}

export interface PromptParts {
  readonly system: string;
  readonly tools: string;
  readonly task: string;
}

/** Where the previous step trimmed: steps up to `elidedThrough` lost their observation, up to `omittedThrough` were left out. */
export interface Trim {
  readonly elidedThrough: number;
  readonly omittedThrough: number;
}

/** The trim a budget shows (0 when nothing was trimmed). */
export function trimOf(b: Budget): Trim {
  return {
    elidedThrough: Math.max(0, ...b.elided, ...b.omitted),
    omittedThrough: Math.max(0, ...b.omitted),
  };
}

/** A quick characters/4 size, for people (the budget itself counts with a TokenCounter). */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** The stated replacement for an elided observation. */
export function elisionText(index: number): string {
  return `[observation of step ${index} elided to fit the context window — re-run the tool if you need it]`;
}

function omissionText(first: number, last: number): string {
  const steps = first === last ? `step ${first}` : `steps ${first}–${last}`;
  return `[${steps} omitted to fit the context window — their changes are in the files; ws_read to see the current state]`;
}

/** An elided step keeps a short head of its call (a ws_write of a whole file would not fit). */
const ELIDED_CALL_CHARS = 240;

/** When the history must be trimmed, it is trimmed to at most this share of its room, so the next steps only append. */
export const TRIM_TO = 0.4;

function shortCall(t: Turn): string {
  return t.call.length <= ELIDED_CALL_CHARS
    ? t.call
    : `${t.call.slice(0, ELIDED_CALL_CHARS)}… [rest of the call of step ${t.index} elided]`;
}

/**
 * Builds the messages of one step within `window` tokens, `output` of them reserved for the
 * reply, counted with `counter` (default: a conservative estimate). `previous` is the trim of
 * the step before, kept while the history still fits; `trimTo` is the share of its room the
 * history is trimmed to when it no longer does (1: only until it fits, one more step at a time —
 * the trimming a prefix cache cannot follow, kept as the bench's baseline).
 */
export function buildContext(
  parts: PromptParts,
  turns: readonly Turn[],
  window: number,
  output: number,
  counter: TokenCounter = new CalibratedCounter(),
  previous: Trim = { elidedThrough: 0, omittedThrough: 0 },
  trimTo = TRIM_TO,
): { messages: ChatMessage[]; budget: Budget } {
  const cost = (msgs: readonly ChatMessage[]) => countMessages(counter, msgs);
  const systemMsg: ChatMessage = { role: 'system', content: `${parts.system}\n\n${parts.tools}` };
  const taskCost = cost([{ role: 'user', content: parts.task }]);
  let room = window - output - counter.perPrompt - cost([systemMsg]) - taskCost;

  const latest = turns[turns.length - 1];
  let latestPair: ChatMessage[] = [];
  let observation = 0;
  let observationCut = false;
  if (latest) {
    // The latest result is what the model must act on: it always goes in, cut if it must be.
    // A huge call (a whole file through ws_write) is shortened first: its text is in the file now.
    // It leaves room for the note that older steps were omitted, which it may force.
    const roomForLatest = room - omissionCost(turns.slice(0, -1), counter);
    const call = cost(pair(latest.call, latest.observation)) > roomForLatest ? shortCall(latest) : latest.call;
    const callTokens = cost(pair(call, ''));
    const cut = cutToTokens(latest.observation, roomForLatest - callTokens, counter);
    observationCut = cut.truncated;
    latestPair = pair(call, cut.text);
    observation = cost(latestPair);
    room -= observation;
  }

  const older = turns.slice(0, -1);
  const plan = planTrim(older, previous, room, counter, trimTo);
  const kept: ChatMessage[] = [];
  for (const t of older) {
    if (t.index <= plan.omittedThrough) continue;
    kept.push(
      ...(t.index <= plan.elidedThrough ? pair(shortCall(t), elisionText(t.index)) : pair(t.call, t.observation)),
    );
  }
  const omitted = older.filter((t) => t.index <= plan.omittedThrough).map((t) => t.index);
  const elided = older
    .filter((t) => t.index > plan.omittedThrough && t.index <= plan.elidedThrough)
    .map((t) => t.index);
  // Omitted steps are the oldest ones; say so once, where the history begins.
  const task = omitted.length
    ? `${parts.task}\n\n${omissionText(omitted[0]!, omitted[omitted.length - 1]!)}`
    : parts.task;
  const messages: ChatMessage[] = [systemMsg, { role: 'user', content: task }, ...kept, ...latestPair];
  const history = cost(kept);
  const taskTokens = cost([messages[1]!]);
  room -= history + (taskTokens - taskCost);
  const tools = counter.text(parts.tools);
  const budget: Budget = {
    window,
    output,
    // Each part is what its messages cost, role markers included, so the parts add up to the
    // prompt's count (the step header's "N prompt"): the system message holds the tool cards too,
    // and the template's once-per-prompt tokens are counted with the system prompt.
    system: counter.perPrompt + cost([systemMsg]) - tools,
    tools,
    task: taskTokens,
    history,
    observation,
    free: Math.max(0, room),
    elided,
    omitted,
    observationCut,
    counting: counter.counting,
  };
  return { messages, budget };
}

/** The most the note for omitted steps can cost (every older step omitted), 0 when there are none. */
function omissionCost(older: readonly Turn[], counter: TokenCounter): number {
  const first = older[0];
  return first ? counter.text(`\n\n${omissionText(first.index, older[older.length - 1]!.index)}`) : 0;
}

/** What the older steps cost under a trim. */
function trimCost(older: readonly Turn[], trim: Trim, counter: TokenCounter): number {
  let n = 0;
  const first = older.find((t) => t.index <= trim.omittedThrough);
  if (first) n += counter.text(`\n\n${omissionText(first.index, trim.omittedThrough)}`);
  for (const t of older) {
    if (t.index <= trim.omittedThrough) continue;
    const msgs = t.index <= trim.elidedThrough ? pair(shortCall(t), elisionText(t.index)) : pair(t.call, t.observation);
    n += countMessages(counter, msgs);
  }
  return n;
}

/**
 * The trim of this step: the previous one while the history fits in `room`; otherwise the
 * boundaries move forward (observations elided first, then whole steps omitted) until the
 * history takes at most `trimTo` of the room — or, when even that cannot be had, until it fits.
 */
function planTrim(older: readonly Turn[], previous: Trim, room: number, counter: TokenCounter, trimTo: number): Trim {
  const last = older.length ? older[older.length - 1]!.index : 0;
  const prev = {
    elidedThrough: Math.min(previous.elidedThrough, last),
    omittedThrough: Math.min(previous.omittedThrough, last),
  };
  if (trimCost(older, prev, counter) <= room) return prev;
  const target = Math.floor(room * trimTo);
  // Candidates in order: more elided, then (all elided) more omitted — the first that meets the target wins.
  const candidates: Trim[] = [];
  for (const t of older) {
    if (t.index > prev.elidedThrough) candidates.push({ elidedThrough: t.index, omittedThrough: prev.omittedThrough });
  }
  for (const t of older) {
    if (t.index > prev.omittedThrough)
      candidates.push({ elidedThrough: Math.max(last, prev.elidedThrough), omittedThrough: t.index });
  }
  let fits: Trim | undefined;
  for (const c of candidates) {
    const n = trimCost(older, c, counter);
    if (n <= target) return c;
    if (!fits && n <= room) fits = c;
  }
  return fits ?? { elidedThrough: last, omittedThrough: last };
}

/** Cuts `text` head+tail to at most `tokens` tokens as `counter` counts them. */
export function cutToTokens(text: string, tokens: number, counter: TokenCounter): { text: string; truncated: boolean } {
  if (counter.text(text) <= tokens) return { text, truncated: false };
  // Characters per token vary with the text: start from the text's own ratio and narrow until it fits.
  let chars = Math.floor((tokens * text.length) / Math.max(1, counter.text(text)));
  for (let i = 0; i < 8; i++) {
    const cut = truncateHeadTail(text, Math.max(0, chars));
    const n = counter.text(cut.text);
    if (n <= tokens || chars <= 0) return { text: cut.text, truncated: true };
    chars = Math.floor(chars * (tokens / n) * 0.97) - 1;
  }
  return { text: truncateHeadTail(text, 0).text, truncated: true };
}

function pair(call: string, observation: string): ChatMessage[] {
  return [
    { role: 'assistant', content: call },
    { role: 'user', content: observation },
  ];
}
