/**
 * The context budget for small windows (4k tokens). Each step's prompt is built from fixed
 * parts (system instructions, tool cards, task) and the history of earlier steps; the budget
 * reserves room for the reply, keeps the latest observation (cut head+tail if it alone is too
 * big), then keeps older steps newest-first. Once one no longer fits, it and every older step
 * lose their observation, replaced by a stated elision; steps that do not fit even then are
 * omitted and the task message says so. Every step records the breakdown for a budget bar.
 */
import { CHARS_PER_TOKEN } from '../engine/settings.ts';
import { truncateHeadTail } from '../engine/truncate.ts';
import type { ChatMessage } from './model.ts';

/** Where the tokens of one prompt went. All counts are characters/4 estimates. */
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
  readonly estimated: true;
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

function shortCall(t: Turn): string {
  return t.call.length <= ELIDED_CALL_CHARS
    ? t.call
    : `${t.call.slice(0, ELIDED_CALL_CHARS)}… [rest of the call of step ${t.index} elided]`;
}

/** Builds the messages of one step within `window` tokens, `output` of them reserved for the reply. */
export function buildContext(
  parts: PromptParts,
  turns: readonly Turn[],
  window: number,
  output: number,
): { messages: ChatMessage[]; budget: Budget } {
  const systemText = `${parts.system}\n\n${parts.tools}`;
  let room =
    window - output - cost([{ role: 'system', content: systemText }]) - cost([{ role: 'user', content: parts.task }]);

  const latest = turns[turns.length - 1];
  let latestPair: ChatMessage[] = [];
  let observation = 0;
  let observationCut = false;
  if (latest) {
    // The latest result is what the model must act on: it always goes in, cut if it must be.
    // A huge call (a whole file through ws_write) is shortened first: its text is in the file now.
    const call = cost(pair(latest.call, latest.observation)) > room ? shortCall(latest) : latest.call;
    const callTokens = cost(pair(call, ''));
    const maxChars = Math.max(0, (room - callTokens) * CHARS_PER_TOKEN);
    const cut = truncateHeadTail(latest.observation, maxChars);
    observationCut = cut.truncated;
    latestPair = pair(call, cut.text);
    observation = cost(latestPair);
    room -= observation;
  }

  const kept: ChatMessage[][] = [];
  const elided: number[] = [];
  const omitted: number[] = [];
  let history = 0;
  let eliding = false;
  let reserve = 0;
  for (let i = turns.length - 2; i >= 0; i--) {
    const t = turns[i]!;
    const full = eliding ? null : pair(t.call, t.observation);
    const fullCost = full ? cost(full) : Infinity;
    if (fullCost <= room) {
      kept.push(full!);
      room -= fullCost;
      history += fullCost;
      continue;
    }
    if (!eliding && i > 0) {
      // Older steps remain: keep room for the omission line in case they do not fit either.
      reserve = estimateTokens(`\n\n${omissionText(1, t.index)}`);
      room -= reserve;
    }
    eliding = true;
    const short = pair(shortCall(t), elisionText(t.index));
    const shortCost = cost(short);
    if (omitted.length === 0 && shortCost <= room) {
      kept.push(short);
      elided.push(t.index);
      room -= shortCost;
      history += shortCost;
    } else omitted.push(t.index);
  }

  let task = parts.task;
  room += reserve;
  if (omitted.length) {
    // Omitted steps are the oldest ones; say so once, where the history begins.
    task += `\n\n${omissionText(Math.min(...omitted), Math.max(...omitted))}`;
    room -= estimateTokens(task) - estimateTokens(parts.task);
  }
  const messages: ChatMessage[] = [
    { role: 'system', content: systemText },
    { role: 'user', content: task },
    ...kept.reverse().flat(),
    ...latestPair,
  ];
  const budget: Budget = {
    window,
    output,
    // Each part is what its messages cost, role markers included, so the parts add up to the
    // prompt's count (the step header's "N prompt"): the system message holds the tool cards too.
    system: cost([messages[0]!]) - estimateTokens(parts.tools),
    tools: estimateTokens(parts.tools),
    task: cost([messages[1]!]),
    history,
    observation,
    free: Math.max(0, room),
    elided: elided.sort((a, b) => a - b),
    omitted: omitted.sort((a, b) => a - b),
    observationCut,
    estimated: true,
  };
  return { messages, budget };
}

function pair(call: string, observation: string): ChatMessage[] {
  return [
    { role: 'assistant', content: call },
    { role: 'user', content: observation },
  ];
}

/** Chat templates wrap every message in role markers; a few tokens each. */
export const MESSAGE_OVERHEAD_TOKENS = 4;

/** Estimated tokens of messages as a chat template renders them. */
export function promptTokens(msgs: readonly ChatMessage[]): number {
  return msgs.reduce((n, m) => n + estimateTokens(m.content) + MESSAGE_OVERHEAD_TOKENS, 0);
}

const cost = promptTokens;
