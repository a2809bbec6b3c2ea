/**
 * A scripted run whose prompts llama.cpp reads for real: each turn's reply is the script's, but
 * the step's exact messages go first to a llama.cpp model (the generated test model with Qwen's
 * vocabulary), which tokenizes them with the real vocabulary and chat template, evaluates them
 * against its KV cache and refuses what does not fit its window — so the loop's budget is tested
 * against true counts, true refusals and a true prefix cache, while the calls stay the script's.
 *
 * `runReadHeavy` is such a run: 44 steps, each reading a fresh 50-line source file (~650 Qwen
 * tokens with its line numbers) or editing one it read, as a small model reading its way through
 * a project would; at a 4,096 window the history is trimmed many times over. `prefillCost` is
 * what its prefix cache had to evaluate against what was new.
 */
import { runLoop, type RunResult } from '../../../src/agent/loop.ts';
import type { ChatMessage, Completion, CompleteOptions, Model, TokenCounter } from '../../../src/agent/model.ts';
import { countMessages } from '../../../src/agent/tokens.ts';
import { createEngine } from '../../../src/engine/create.ts';
import type { Workspace } from '../../../src/engine/workspace.ts';
import { MemoryWorkspace } from '../../../src/workspace/memory/memory-workspace.ts';

/** A llama.cpp model as this file needs it (GgufNodeModel; typed here so importing this file loads no native code). */
export interface CountingModel extends Model {
  readonly contextWindow: number;
  readonly tokenizer: TokenCounter;
}

/** What the engine reported for one prompt it read. */
interface Evaluated {
  readonly messages: readonly ChatMessage[];
  /** The whole prompt, as llama.cpp tokenized it. */
  readonly promptTokens: number;
  /** Of those, the ones evaluated this turn (the rest came from the KV cache). */
  readonly evaluated: number;
  readonly cached: number;
}

/**
 * Adds text to the last message of request `n` (counted over every request, refused ones
 * included), or returns null to send the prompt as the loop built it.
 */
export type Injection = (request: number, messages: readonly ChatMessage[]) => string | null;

/** Replays `outputs` as the replies, after llama.cpp has read each prompt (and refused it if it must). */
export class CountedScript implements Model {
  readonly id: string;
  readonly family: string;
  readonly contextWindow: number;
  readonly tokenizer: TokenCounter;
  /** Every prompt llama.cpp accepted, in order. */
  readonly evaluated: Evaluated[] = [];
  /** How many prompts llama.cpp refused as too long. */
  refusals = 0;
  private next = 0;
  private requests = 0;

  constructor(
    private readonly llama: CountingModel,
    private readonly outputs: readonly string[],
    private readonly inject: Injection = () => null,
  ) {
    this.id = `${llama.id}+script`;
    this.family = llama.family;
    this.contextWindow = llama.contextWindow;
    this.tokenizer = llama.tokenizer;
  }

  async complete(messages: readonly ChatMessage[], o: CompleteOptions): Promise<Completion> {
    const extra = this.inject(this.requests++, messages);
    const sent = extra === null ? messages : withExtra(messages, extra);
    let read: Completion;
    try {
      // One token is written: a turn costs the prompt's evaluation only. So llama.cpp refuses a
      // prompt that passes the window itself; the reply's room beside it is the loop's to keep,
      // and the tests check it from the counts llama.cpp reports.
      read = await this.llama.complete(sent, {
        seed: o.seed,
        temperature: 0,
        maxTokens: 1,
        ...(o.signal && { signal: o.signal }),
      });
    } catch (e) {
      if ((e as { code?: string }).code === 'context') this.refusals++;
      throw e;
    }
    const text = this.outputs[this.next++] ?? '{"tool": "done", "args": {"summary": "the script ended"}}';
    this.evaluated.push({
      messages: sent,
      promptTokens: read.usage!.promptTokens,
      evaluated: read.timings!.promptTokens,
      cached: read.timings!.cachedTokens,
    });
    return { text, finishReason: 'stop', usage: read.usage!, timings: read.timings! };
  }
}

function withExtra(messages: readonly ChatMessage[], extra: string): ChatMessage[] {
  const last = messages[messages.length - 1]!;
  return [...messages.slice(0, -1), { ...last, content: last.content + extra }];
}

/** One line of plausible source code, different for every file and line. */
function sourceLine(file: number, line: number): string {
  const shapes = [
    `function f${file}_${line}(a) {`,
    `  const v = compute(a, ${line});`,
    `  if (v > ${line * 3}) return null;`,
    `  return v + ${file};`,
    '}',
  ];
  return shapes[line % shapes.length]!;
}

const READ_HEAVY_FILES = 30;
const READ_HEAVY_LINES = 50;
export const READ_HEAVY_STEPS = 44;

/** The files the run reads: `src/mod{i}.js`, 50 lines each. */
async function seedReadHeavy(ws: Workspace): Promise<void> {
  const enc = new TextEncoder();
  for (let f = 0; f < READ_HEAVY_FILES; f++) {
    const text = Array.from({ length: READ_HEAVY_LINES }, (_, l) => sourceLine(f, l)).join('\n');
    await ws.writeFile(`src/mod${f}.js`, enc.encode(`${text}\n`));
  }
}

/** 44 calls: each file read whole, every third step after that an edit of a line the file has; then done. */
function readHeavyScript(): string[] {
  const call = (tool: string, args: object) => JSON.stringify({ thought: `next: ${tool}`, tool, args });
  const out: string[] = [];
  for (let f = 0; out.length < READ_HEAVY_STEPS; f++) {
    const file = f % READ_HEAVY_FILES;
    out.push(call('ws_read', { path: `src/mod${file}.js`, ...(f >= READ_HEAVY_FILES && { offset: 10 }) }));
    if (f % 3 === 2 && out.length < READ_HEAVY_STEPS) {
      const line = sourceLine(file, 5).trim();
      out.push(
        call('ws_edit', {
          path: `src/mod${file}.js`,
          old_str: line,
          new_str: line.replace('compute(', 'computeSafe('),
        }),
      );
    }
  }
  out.push(call('done', { summary: 'read every module and made the calls safe' }));
  return out;
}

interface ReadHeavyOptions {
  readonly window: number;
  readonly inject?: Injection;
  readonly maxSteps?: number;
  /** The loop's trimming (LoopOptions.trimTo). */
  readonly trimTo?: number;
}

/** The read-heavy script run through the loop, each prompt read by `llama`. */
export async function runReadHeavy(
  llama: CountingModel,
  o: ReadHeavyOptions,
): Promise<{ scripted: CountedScript; result: RunResult }> {
  const ws = new MemoryWorkspace();
  await seedReadHeavy(ws);
  const scripted = new CountedScript(llama, readHeavyScript(), o.inject);
  const result = await runLoop({
    engine: createEngine(ws),
    model: scripted,
    task: 'Make every compute call in src/ safe.',
    maxSteps: o.maxSteps ?? READ_HEAVY_STEPS + 1,
    contextTokens: o.window,
    outputTokens: 512,
    ...(o.trimTo !== undefined && { trimTo: o.trimTo }),
  });
  return { scripted, result };
}

/**
 * What a prefix cache had to evaluate against what was new: the first prompt is all new; each
 * later one adds the previous step's call and its result (the last two messages), and whatever
 * else was evaluated was re-read because trimming changed the prompt before it.
 */
export function prefillCost(scripted: CountedScript): { evaluated: number; fresh: number } {
  let evaluated = 0;
  let fresh = 0;
  scripted.evaluated.forEach((e, i) => {
    evaluated += e.evaluated;
    fresh += i === 0 ? e.promptTokens : countMessages(scripted.tokenizer, e.messages.slice(-2));
  });
  return { evaluated, fresh };
}
