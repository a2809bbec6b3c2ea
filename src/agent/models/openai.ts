/**
 * A model behind an OpenAI-compatible `/v1/chat/completions` endpoint (Ollama, LM Studio,
 * llama.cpp's server, vLLM …): streaming SSE, usage when the server reports it, JSON mode via
 * `response_format: {type: "json_schema"}` (dropped for the rest of the session when the
 * server rejects it) or, with `toolsApi`, the tool schemas as the server's own `tools` (the
 * server parses its model's native call format; its `tool_calls` become the call text the loop
 * parses), the request and response of every call summarised for the inspector, and errors that say what to do — connection refused, the browser's CORS
 * block, an HTTP status with its body, a reply that is not a completion.
 */
import {
  ModelError,
  type ChatMessage,
  type Completion,
  type CompleteOptions,
  type Model,
  type ModelExchange,
  type Usage,
} from '../model.ts';
import { contextError } from './context-errors.ts';
import { callText, toolsOf, type ToolCallPart } from './tool-calls.ts';
import { modelFamily } from './catalog.ts';
import { sseData } from './sse.ts';

export interface OpenAIOptions {
  /** e.g. `http://127.0.0.1:11434/v1`; an origin without a path gets `/v1`. */
  readonly baseUrl: string;
  readonly model: string;
  readonly apiKey?: string;
  /** Stream tokens (default true). */
  readonly stream?: boolean;
  /** Send the call schema as `response_format` (default true). */
  readonly jsonSchema?: boolean;
  /**
   * Send the call schema as the server's `tools` (with `tool_choice: "auto"`) instead of
   * `response_format`: vLLM, llama.cpp's server and Ollama then parse their model's own format.
   */
  readonly toolsApi?: boolean;
  readonly contextWindow?: number;
  /** Injected for tests and for runtimes with their own fetch. */
  readonly fetch?: typeof fetch;
  /** How long to wait for the endpoint to start answering a step (default 120 s: a server may load the model first). */
  readonly answerTimeoutMs?: number;
}

export const ANSWER_TIMEOUT_MS = 120_000;

/** How much of an error body goes into a message. */
const BODY_CHARS = 500;

export class OpenAIModel implements Model {
  readonly id: string;
  readonly family: string;
  readonly contextWindow?: number;
  private readonly url: string;
  /** Cleared when the server rejects `response_format`, so later steps do not fail the same way. */
  private schemaSupported: boolean;

  constructor(private readonly opts: OpenAIOptions) {
    const base = normalizeBaseUrl(opts.baseUrl);
    this.url = `${base}/chat/completions`;
    this.id = `openai:${base}#${opts.model}`;
    this.family = modelFamily(opts.model);
    this.schemaSupported = opts.jsonSchema ?? true;
    if (opts.contextWindow !== undefined) this.contextWindow = opts.contextWindow;
  }

  async complete(messages: readonly ChatMessage[], o: CompleteOptions): Promise<Completion> {
    const withSchema = this.schemaSupported && o.jsonSchema !== undefined;
    const body = this.body(messages, o, withSchema);
    const res = await this.post(body, o);
    if (!res.ok) {
      const body = await res.text().catch(() => '');
      if (withSchema && res.status === 400 && /response_format|json_schema|tool/i.test(body)) {
        this.schemaSupported = false;
        return this.complete(messages, o);
      }
      throw contextError(this.url, body) ?? httpError(this.url, res.status, res.statusText, body);
    }
    const type = res.headers.get('content-type') ?? '';
    // Some servers ignore `stream: true` and answer with one JSON body.
    const reply =
      type.includes('text/event-stream') && res.body ? await readStream(res.body, o) : readJson(await res.text(), o);
    const text = reply.toolCalls.length ? callText(reply.toolCalls) : reply.content;
    if (reply.toolCalls.length) o.onToken?.(text);
    const exchange: ModelExchange = {
      request: { ...body, messages: elided(messages) },
      response: {
        ...(reply.finishReason !== undefined && { finish_reason: reply.finishReason }),
        ...(reply.usage && {
          usage: { prompt_tokens: reply.usage.promptTokens, completion_tokens: reply.usage.completionTokens },
        }),
        content_chars: reply.content.length,
        ...(reply.toolCalls.length && { tool_calls: reply.toolCalls }),
      },
    };
    const finishReason = reply.finishReason === 'length' ? 'length' : reply.finishReason ? 'stop' : undefined;
    return { text, ...(finishReason && { finishReason }), ...(reply.usage && { usage: reply.usage }), exchange };
  }

  private body(messages: readonly ChatMessage[], o: CompleteOptions, withSchema: boolean): Record<string, unknown> {
    const stream = this.opts.stream ?? true;
    const format =
      withSchema &&
      o.jsonSchema !== undefined &&
      (this.opts.toolsApi
        ? { tools: toolsOf(o.jsonSchema), tool_choice: 'auto' }
        : {
            response_format: {
              type: 'json_schema',
              json_schema: { name: 'tool_call', schema: o.jsonSchema, strict: false },
            },
          });
    return {
      model: this.opts.model,
      messages,
      temperature: o.temperature,
      seed: o.seed,
      ...(o.maxTokens !== undefined && { max_tokens: o.maxTokens }),
      stream,
      ...(stream && { stream_options: { include_usage: true } }),
      ...format,
    };
  }

  private async post(body: Record<string, unknown>, o: CompleteOptions): Promise<Response> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.opts.apiKey) headers.authorization = `Bearer ${this.opts.apiKey}`;
    // A server that never answers would hold the step forever: give up when the wait is over.
    // The wait ends with the response's headers; a long stream after them is not cut.
    const waitMs = this.opts.answerTimeoutMs ?? ANSWER_TIMEOUT_MS;
    const ac = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => ((timedOut = true), ac.abort()), waitMs);
    const stop = () => ac.abort();
    o.signal?.addEventListener('abort', stop, { once: true });
    if (o.signal?.aborted) ac.abort();
    try {
      return await (this.opts.fetch ?? fetch)(this.url, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal: ac.signal,
      });
    } catch (e) {
      if (timedOut) {
        throw new ModelError(
          'connection',
          `${this.url} did not start answering within ${waitMs / 1000} s. Check that the server is running and has the model loaded (its log says), then press Retry.`,
        );
      }
      throw fetchError(this.url, e);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** `http://host:port` → `http://host:port/v1`; any path is kept as given, without a trailing slash. */
export function normalizeBaseUrl(baseUrl: string): string {
  const trimmed = baseUrl.trim().replace(/\/+$/, '');
  return /^[a-z]+:\/\/[^/]+$/i.test(trimmed) ? `${trimmed}/v1` : trimmed;
}

/** The messages of a request as the inspector shows them: how many, and each one's role and size. */
function elided(messages: readonly ChatMessage[]): { count: number; chars: { role: string; chars: number }[] } {
  return { count: messages.length, chars: messages.map((m) => ({ role: m.role, chars: m.content.length })) };
}

/** What a reply held, streamed or not. */
interface Reply {
  readonly content: string;
  readonly toolCalls: readonly ToolCallPart[];
  readonly finishReason?: string;
  readonly usage?: Usage;
}

interface ToolCallDelta {
  index?: number;
  function?: { name?: string; arguments?: unknown };
}

async function readStream(body: ReadableStream<Uint8Array>, o: CompleteOptions): Promise<Reply> {
  let text = '';
  let usage: Usage | undefined;
  let finishReason: string | undefined;
  const calls: { name: string; arguments: string }[] = [];
  try {
    for await (const data of sseData(body, o.signal)) {
      if (data.trim() === '[DONE]') break;
      const chunk = parseJson(data);
      if (chunk === undefined)
        throw new ModelError(
          'bad-response',
          `The endpoint streamed an event that is not JSON: ${data.slice(0, BODY_CHARS)}`,
        );
      const err = (chunk as { error?: { message?: string } }).error;
      if (err) {
        const said = err.message ?? JSON.stringify(err);
        throw (
          contextError('The endpoint', said) ??
          new ModelError('http', `The endpoint reported an error while streaming: ${said}`)
        );
      }
      const choice = (
        chunk as {
          choices?: {
            delta?: { content?: string | null; tool_calls?: ToolCallDelta[] };
            finish_reason?: string | null;
          }[];
        }
      ).choices?.[0];
      const delta = choice?.delta?.content;
      if (delta) {
        text += delta;
        o.onToken?.(delta);
      }
      // A streamed tool call comes in pieces, keyed by its index: the name first, the arguments' JSON text after.
      for (const part of choice?.delta?.tool_calls ?? []) {
        const call = (calls[part.index ?? Math.max(calls.length - 1, 0)] ??= { name: '', arguments: '' });
        call.name += part.function?.name ?? '';
        const args = part.function?.arguments;
        call.arguments += typeof args === 'string' ? args : args === undefined ? '' : JSON.stringify(args);
      }
      if (choice?.finish_reason) finishReason = choice.finish_reason;
      usage = readUsage(chunk) ?? usage;
    }
  } catch (e) {
    if (e instanceof ModelError) throw e;
    if (o.signal?.aborted || (e instanceof Error && e.name === 'AbortError'))
      throw new ModelError('aborted', 'The model request was stopped.');
    throw new ModelError(
      'connection',
      `The connection broke while the reply was streaming (${(e as Error).message}). Retry; if it keeps happening, check the server's log.`,
    );
  }
  if (o.signal?.aborted) throw new ModelError('aborted', 'The model request was stopped.');
  return {
    content: text,
    toolCalls: calls.filter((c) => c),
    ...(finishReason && { finishReason }),
    ...(usage && { usage }),
  };
}

function readJson(raw: string, o: CompleteOptions): Reply {
  const json = parseJson(raw);
  const choice = (
    json as
      | { choices?: { message?: { content?: string | null; tool_calls?: ToolCallDelta[] }; finish_reason?: string }[] }
      | undefined
  )?.choices?.[0];
  const content = choice?.message?.content;
  const toolCalls = (choice?.message?.tool_calls ?? []).map((c) => {
    const args = c.function?.arguments;
    return { name: c.function?.name ?? '', arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}) };
  });
  if (typeof content !== 'string' && !toolCalls.length) {
    throw new ModelError(
      'bad-response',
      `The endpoint's reply is not a chat completion (no choices[0].message.content or tool_calls): ${raw.slice(0, BODY_CHARS)}`,
    );
  }
  if (typeof content === 'string' && !toolCalls.length) o.onToken?.(content);
  const usage = readUsage(json);
  return {
    content: content ?? '',
    toolCalls,
    ...(choice?.finish_reason && { finishReason: choice.finish_reason }),
    ...(usage && { usage }),
  };
}

function readUsage(json: unknown): Usage | undefined {
  const u = (json as { usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } | null }).usage;
  if (!u || typeof u.prompt_tokens !== 'number' || typeof u.completion_tokens !== 'number') return undefined;
  return { promptTokens: u.prompt_tokens, completionTokens: u.completion_tokens };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** What a failed fetch means: aborted, refused (Node names the cause), or the browser's opaque CORS/network failure. */
export function fetchError(url: string, e: unknown): ModelError {
  const err = e as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (err?.name === 'AbortError') return new ModelError('aborted', 'The model request was stopped.');
  const code = err?.cause?.code;
  if (code === 'ECONNREFUSED') {
    return new ModelError(
      'connection',
      `Could not connect to ${url}: connection refused. Start the server (e.g. \`ollama serve\`, or LM Studio's local server) or fix the host and port in the base URL.`,
    );
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return new ModelError('connection', `Could not resolve the host of ${url} (${code}). Check the base URL.`);
  }
  if (code)
    return new ModelError(
      'connection',
      `Could not reach ${url} (${code}: ${err.cause?.message ?? ''}). Check that the server is running and the base URL is right.`,
    );
  if (/Failed to fetch|NetworkError|Load failed/i.test(err?.message ?? '')) {
    return new ModelError(
      'cors',
      `The browser could not reach ${url} (${err.message}). Either the server is not running, or it does not allow requests from this page (CORS). ` +
        'Ollama: restart it with OLLAMA_ORIGINS set to this page\'s origin (e.g. OLLAMA_ORIGINS="*" ollama serve). ' +
        'LM Studio: turn on "Enable CORS" in the local server\'s settings. Other servers: allow this origin in their CORS settings.',
    );
  }
  const why = [err?.message ?? String(e), err?.cause?.message].filter(Boolean).join(': ');
  return new ModelError(
    'connection',
    `Could not reach ${url} (${why}). Check that the server is running and the base URL is right.`,
  );
}

function httpError(url: string, status: number, statusText: string, body: string): ModelError {
  const hint =
    status === 401 || status === 403
      ? ' Check the API key.'
      : status === 404
        ? ' Check the base URL (it usually ends in /v1) and that the model name is one the server has (e.g. `ollama list`).'
        : status >= 500
          ? ' The server failed; its log says why (often the model could not be loaded or ran out of memory).'
          : '';
  const shown = body.length > BODY_CHARS ? `${body.slice(0, BODY_CHARS)}…` : body;
  return new ModelError(
    'http',
    `${url} answered HTTP ${status}${statusText ? ` ${statusText}` : ''}: ${shown || '(empty body)'}.${hint}`,
  );
}
