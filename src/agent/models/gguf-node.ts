/**
 * A GGUF model on the CPU in Node through node-llama-cpp — the only importer of
 * `node-llama-cpp`, used by `slm run --model gguf:FILE`, the bench and the tests; never by
 * browser code (the browser's llama.cpp is wllama.ts).
 *
 * - The prebuilt CPU binary only: `getLlama({ build: 'never', gpu: false })` never compiles
 *   llama.cpp and never downloads anything; a missing binary is a load error saying so.
 * - The chat template is the model's own (node-llama-cpp resolves it from the GGUF).
 * - JSON mode: the call's JSON schema becomes a GBNF grammar (json-grammar.ts), so every reply
 *   is a call the schema accepts; byte tokens that can produce invalid UTF-8 are banned
 *   (utf8-bans.ts, the same list the browser engine bans).
 * - One context sequence for the model's lifetime: each turn renders the whole conversation and
 *   llama.cpp evaluates only the tokens after the part already in the KV cache.
 * - The seed is the run's: none is set at load (it would override every request's), and request
 *   n of this model samples with a seed drawn from the given seed and n — the same run gives the
 *   same replies, yet each step draws afresh rather than repeating the previous step's draws.
 *   Stop aborts mid-generation.
 * - A prompt that does not fit the window with the reply's room is refused as a context overflow
 *   (never shortened behind the loop's back, as node-llama-cpp's context shift would).
 * - Each completion reports the engine's timings: prompt tokens read this turn, those reused
 *   from the KV cache, prefill and decode tokens per second.
 */
import { openAsBlob } from 'node:fs';
import { stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { basename } from 'node:path';
import {
  getLlama,
  LlamaChat,
  LlamaLogLevel,
  TokenBias,
  type ChatHistoryItem,
  type Token,
  type Llama,
  type LlamaContext,
  type LlamaGrammar,
  type LlamaModel,
} from 'node-llama-cpp';
import { jsonSchemaGrammar } from '../json-grammar.ts';
import {
  ModelError,
  type ChatMessage,
  type CompleteOptions,
  type Completion,
  type EngineTimings,
  type FinishReason,
  type Model,
  type TokenCounter,
} from '../model.ts';
import { contextError } from './context-errors.ts';
import { modelFamily } from './catalog.ts';
import { GgufFormatError, metaString, readGgufHeader, trainedContext, trainedContextKey } from './gguf-header.ts';
import { TEMPLATE_PROBES, templateOverhead } from '../tokens.ts';
import { bannedTokenIds } from './utf8-bans.ts';

export interface GgufNodeOptions {
  /** Path of the .gguf file. */
  readonly file: string;
  /** Context window in tokens (default 4096), at most the model's trained context. */
  readonly contextTokens?: number;
  /** CPU threads (default: one per core but one, at most 4). */
  readonly threads?: number;
}

const DEFAULT_CONTEXT = 4096;

export function defaultThreads(cores = availableParallelism()): number {
  return Math.max(1, Math.min(4, cores - 1));
}

/** Loads the file; a ModelError (`load`) names the file and what to do. */
export async function loadGgufNode(o: GgufNodeOptions): Promise<GgufNodeModel> {
  const name = basename(o.file);
  let header;
  try {
    if (!(await stat(o.file)).isFile()) throw new GgufFormatError('it is a directory, not a .gguf file.');
    header = await readGgufHeader(await openAsBlob(o.file));
  } catch (e) {
    const why =
      e instanceof GgufFormatError
        ? e.message
        : (e as NodeJS.ErrnoException).code === 'ENOENT'
          ? 'there is no such file; give the path of a .gguf file.'
          : String(e);
    throw new ModelError('load', `${o.file} cannot be loaded: ${why}`);
  }
  const trained = trainedContext(header);
  const contextSize = Math.min(o.contextTokens ?? DEFAULT_CONTEXT, trained ?? Infinity);
  const key = trainedContextKey(header);
  let llama: Llama;
  try {
    llama = await getLlama({ build: 'never', gpu: false, progressLogs: false, logLevel: LlamaLogLevel.error });
  } catch (e) {
    throw new ModelError(
      'load',
      `node-llama-cpp has no prebuilt llama.cpp binary for this machine (${String(e)}); run npm ci on linux-x64, macOS or Windows.`,
    );
  }
  try {
    const model = await llama.loadModel({ modelPath: o.file, gpuLayers: 0 });
    const context = await model.createContext({ contextSize, threads: o.threads ?? defaultThreads() });
    const modelName = metaString(header, 'general.name') ?? name.replace(/\.gguf$/i, '');
    return new GgufNodeModel(llama, model, context, {
      id: `gguf:${name}`,
      family: modelFamily(modelName),
      name,
      bans: bannedTokenIds(header),
      ...(trained !== undefined && key && { trained: { tokens: trained, key } }),
    });
  } catch (e) {
    await llama.dispose();
    throw new ModelError(
      'load',
      `llama.cpp could not load ${name}: ${e instanceof Error ? e.message : String(e)}. The file may be damaged, too large for this machine's memory, or of an architecture this llama.cpp build does not know.`,
    );
  }
}

interface Identity {
  readonly id: string;
  readonly family: string;
  readonly name: string;
  readonly bans: readonly number[];
  readonly trained?: TrainedContext;
}

/** The context the file says the model was trained on, and the header key that says it. */
export interface TrainedContext {
  readonly tokens: number;
  /** e.g. `llama.context_length`. */
  readonly key: string;
}

export class GgufNodeModel implements Model {
  readonly id: string;
  readonly family: string;
  /** The window the context was made with: the one asked for, within `trained`. */
  readonly contextWindow: number;
  /** What the file's header says the model was trained on, when it says. */
  readonly trained?: TrainedContext;
  readonly tokenizer: TokenCounter;
  private readonly chat: LlamaChat;
  private readonly bias: TokenBias;
  private readonly grammars = new Map<string, Promise<LlamaGrammar>>();
  private requests = 0;

  constructor(
    private readonly llama: Llama,
    private readonly model: LlamaModel,
    private readonly context: LlamaContext,
    private readonly who: Identity,
  ) {
    this.id = who.id;
    this.family = who.family;
    this.contextWindow = context.contextSize;
    if (who.trained) this.trained = who.trained;
    this.chat = new LlamaChat({ contextSequence: context.getSequence() });
    this.bias = new TokenBias(model.tokenizer);
    this.tokenizer = templateCounter(model, this.chat);
    for (const token of who.bans) this.bias.set(token as Token, 'never');
  }

  async complete(messages: readonly ChatMessage[], o: CompleteOptions): Promise<Completion> {
    if (o.signal?.aborted) throw new ModelError('aborted', 'The model request was stopped.');
    const sequence = this.chat.sequence;
    this.refuseOverflow(messages, o.maxTokens ?? 0);
    const grammar = o.jsonSchema && (await this.grammarFor(o.jsonSchema));
    const cachedBefore = [...sequence.contextTokens];
    const writtenBefore = sequence.tokenMeter.usedOutputTokens;
    const start = performance.now();
    let first: number | undefined;
    // The prompt as evaluated: the sequence's tokens when the first reply token arrives.
    let prompt: readonly Token[] = [];
    let text = '';
    let finishReason: FinishReason = 'stop';
    try {
      const res = await this.chat.generateResponse(history(messages), {
        ...(grammar && { grammar }),
        tokenBias: this.bias,
        seed: requestSeed(o.seed, this.requests++),
        temperature: o.temperature,
        ...(o.maxTokens !== undefined && { maxTokens: o.maxTokens }),
        ...(o.signal && { signal: o.signal }),
        onToken: () => {
          if (first !== undefined) return;
          first = performance.now();
          prompt = [...sequence.contextTokens];
        },
        onTextChunk: (chunk) => {
          text += chunk;
          o.onToken?.(chunk);
        },
      });
      if (res.metadata.stopReason === 'maxTokens') finishReason = 'length';
    } catch (e) {
      if (o.signal?.aborted) throw new ModelError('aborted', 'The model request was stopped.');
      const said = e instanceof Error ? e.message : String(e);
      throw (
        contextError(`llama.cpp (${this.who.name})`, said) ??
        new ModelError('load', `llama.cpp failed while answering with ${this.who.name}: ${said}`)
      );
    }
    const end = performance.now();
    const written = sequence.tokenMeter.usedOutputTokens - writtenBefore;
    // llama.cpp keeps the common prefix of what the sequence held and the new prompt, and reads at least one token.
    const cached = Math.min(commonPrefix(cachedBefore, prompt), Math.max(0, prompt.length - 1));
    const read = prompt.length - cached;
    const firstAt = first ?? end;
    const timings: EngineTimings = {
      promptTokens: read,
      cachedTokens: cached,
      prefillTps: rate(read, firstAt - start),
      decodeTps: rate(Math.max(0, written - 1), end - firstAt),
    };
    return { text, finishReason, usage: { promptTokens: prompt.length, completionTokens: written }, timings };
  }

  /**
   * Refuses a prompt that, with the reply's room, passes the window — as llama.cpp's server words
   * it, so the loop reads both sizes back. Left to itself node-llama-cpp would answer anyway,
   * having silently dropped the oldest messages to fit (its context shift): the model would act
   * on a history the budget never saw.
   */
  private refuseOverflow(messages: readonly ChatMessage[], reply: number): void {
    const rendered = this.chat.chatWrapper
      .generateContextState({ chatHistory: history(messages) })
      .contextText.tokenize(this.model.tokenizer).length;
    if (rendered + reply <= this.contextWindow) return;
    throw contextError(
      `llama.cpp (${this.who.name})`,
      `the request (${rendered + reply} tokens) exceeds the available context size (${this.contextWindow} tokens): a prompt of ${rendered} tokens and ${reply} for the reply`,
    )!;
  }

  /** Frees the context, the weights and the engine. */
  async dispose(): Promise<void> {
    this.chat.dispose();
    await this.context.dispose();
    await this.model.dispose();
    await this.llama.dispose();
  }

  private grammarFor(schema: object): Promise<LlamaGrammar> {
    const key = JSON.stringify(schema);
    let g = this.grammars.get(key);
    if (!g) {
      g = this.llama.createGrammar({ grammar: jsonSchemaGrammar(schema) });
      this.grammars.set(key, g);
    }
    return g;
  }
}

/** Request n's sampling seed, from the run's seed (a 32-bit mix, so nearby seeds and requests draw unrelated streams). */
export function requestSeed(seed: number, n: number): number {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(n + 1, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  return (h ^ (h >>> 15)) >>> 0;
}

function commonPrefix(a: readonly Token[], b: readonly Token[]): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

function rate(tokens: number, ms: number): number {
  return ms > 0 ? (tokens * 1000) / ms : 0;
}

/** The loop's messages as node-llama-cpp's chat history, ending with the reply to write. */
function history(messages: readonly ChatMessage[]): ChatHistoryItem[] {
  const items: ChatHistoryItem[] = messages.map((m) =>
    m.role === 'system'
      ? { type: 'system', text: m.content }
      : m.role === 'user'
        ? { type: 'user', text: m.content }
        : { type: 'model', response: [m.content] },
  );
  items.push({ type: 'model', response: [] });
  return items;
}

/**
 * Counts with the model's own tokenizer and its own chat template: the template's tokens per
 * message and once per prompt are read off two rendered conversations, so a prompt's count is
 * its content's tokens plus those.
 */
function templateCounter(model: LlamaModel, chat: LlamaChat): TokenCounter {
  const text = (s: string) => (s ? model.tokenize(s, false).length : 0);
  const rendered = (messages: readonly ChatMessage[]) =>
    chat.chatWrapper.generateContextState({ chatHistory: history(messages) }).contextText.tokenize(model.tokenizer)
      .length;
  const overhead = templateOverhead(rendered(TEMPLATE_PROBES.one), rendered(TEMPLATE_PROBES.two), text);
  return { counting: 'counted', text, ...overhead };
}
