/**
 * "Copy as curl" for a step's endpoint request: the same POST to the same
 * `/chat/completions` with the same body — the recorded parameters (model, temperature, seed,
 * max_tokens, stream, response_format or tools) and the messages the step sent in full — as a
 * shell command a person can paste to ask the server again. The API key is never in it: the
 * header reads `$SLM_API_KEY` from the shell that runs it (as `slm run` does).
 */
import type { Step } from '../../worker/client.ts';

/** The command, or null when the step did not call an OpenAI-compatible endpoint. */
export function curlText(modelId: string | null, step: Pick<Step, 'exchange' | 'messages'>): string | null {
  const base = endpointBase(modelId);
  if (!base || !step.exchange) return null;
  const body = { ...step.exchange.request, messages: step.messages.map((m) => ({ role: m.role, content: m.content })) };
  return [
    `curl ${shellQuote(`${base}/chat/completions`)}`,
    `-H ${shellQuote('content-type: application/json')}`,
    // Double quotes so the shell fills in the key; the page never writes it.
    '-H "authorization: Bearer $SLM_API_KEY"',
    `--data-binary ${shellQuote(JSON.stringify(body, null, 2))}`,
  ].join(' \\\n  ');
}

/** The base URL of an endpoint model id (`openai:BASE_URL#MODEL`); null for any other model. */
function endpointBase(modelId: string | null): string | null {
  if (!modelId?.startsWith('openai:')) return null;
  const rest = modelId.slice('openai:'.length);
  const hash = rest.indexOf('#'); // a base URL has no fragment; a model name may hold a #
  const base = hash < 0 ? rest : rest.slice(0, hash);
  return /^https?:\/\/[^/]/.test(base) ? base : null;
}

/** One shell word holding exactly `text`: single-quoted, each `'` written as `'\''`. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
