/**
 * Whether a built prompt fits the window before it is sent, and the stop when it cannot. The
 * prompt has already been trimmed as far as the budget may (old observations elided, old steps
 * omitted, the latest observation cut), so what is left over the window is its fixed part: the
 * system prompt, the tool cards, the task and the latest call. Sending it would only earn the
 * engine's refusal (or, on llama.cpp in Node, a failed context shift), so the run ends here as
 * `context-overflow`, naming the counts and what would make it fit.
 *
 * Only a count that can be trusted ends a run: the model's own tokenizer (`counted`), or one
 * calibrated from the sizes the model reported (`calibrated`, exact for every text it has read).
 * A conservative estimate errs high by design, so a prompt it puts over the window is sent once
 * and the engine decides; a refusal calibrates the count, and the rebuilt prompt is measured.
 */
import type { Budget } from './context.ts';
import type { ChatMessage, TokenCounter } from './model.ts';
import type { Stop } from './step.ts';
import { countPrompt } from './tokens.ts';

/** What the fit check needs of a built step. */
export interface BuiltPrompt {
  readonly messages: readonly ChatMessage[];
  readonly budget: Budget;
}

/** What the advice may name: whether the small tool set is already in use. */
export interface FitAdvice {
  readonly toolSet: 'full' | 'small';
}

/**
 * The stop for a prompt that, trimmed as far as it may be, still does not leave the reply's
 * reserve free in the window; undefined when it fits or when the count is only an estimate.
 * `refused` is the engine's refusal of an earlier build of this step, when there was one.
 */
export function unfitStop(
  counter: TokenCounter,
  built: BuiltPrompt,
  advice: FitAdvice,
  refused?: string,
): Stop | undefined {
  if (counter.counting === 'estimated') return undefined;
  const { window, output } = built.budget;
  const prompt = countPrompt(counter, built.messages);
  if (prompt + output <= window) return undefined;
  return { kind: 'context-overflow', message: unfitMessage(prompt, built.budget, counter, advice, refused) };
}

function unfitMessage(
  prompt: number,
  b: Budget,
  counter: TokenCounter,
  advice: FitAdvice,
  refused: string | undefined,
): string {
  const how =
    counter.counting === 'counted' ? "counted with the model's tokenizer" : "calibrated from the model's reports";
  const parts = [
    `system prompt ${n(b.system)}`,
    `tool cards ${n(b.tools)}`,
    `task ${n(b.task)}`,
    ...(b.history > 0 ? [`history ${n(b.history)}`] : []),
    ...(b.observation > 0 ? [`latest step ${n(b.observation)}`] : []),
  ];
  const trimmed =
    b.elided.length || b.omitted.length || b.observationCut ? ', with the history trimmed as far as it goes' : '';
  const after = refused ? ` The model had refused this step's first prompt (${refused}).` : '';
  const help = [
    'a larger context window (the window choice on the start screen, or --context for slm; up to what the model was trained on)',
    ...(advice.toolSet === 'full' ? ['the small tool set (tool_set "small": fewer tool cards)'] : []),
    'a shorter task',
    'or another model, trained on a longer context',
  ];
  return (
    `the prompt does not fit the model's context window, so it was not sent: it needs ${n(prompt)} tokens (${how}: ${parts.join(', ')}${trimmed}) ` +
    `and ${n(b.output)} more are kept for the reply, ${n(prompt + b.output)} in all for a window of ${n(b.window)} tokens.${after} ` +
    `What would make it fit: ${help.join(', ')}.`
  );
}

/**
 * The stop when the engine refused the step again after it was rebuilt within a smaller budget
 * (the rebuilt prompt could not be measured, or the count said it fit).
 */
export function refusedAgainStop(window: number, smaller: number, said: string): Stop {
  return {
    kind: 'context-overflow',
    message:
      `the prompt did not fit the model's context window, even rebuilt within ${smaller} tokens after a refusal at ${window} (${said}). ` +
      'A larger context window would help (pick a model or setting with more tokens, or --context with a larger value), or a smaller task: fewer or shorter files read at once.',
  };
}

function n(tokens: number): string {
  return tokens.toLocaleString('en-US');
}
