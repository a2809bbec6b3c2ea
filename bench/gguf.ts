/**
 * llama.cpp's speed on the generated test model (tests/support/gguf/test-model.ts): prefill and
 * decode tokens per second of node-llama-cpp on the CPU, reading the agent's real first-step
 * prompt and writing a call in JSON mode (grammar on), then free text. The figures are the
 * engine's own (gguf-node.ts: prompt tokens read over the time to the first token; tokens after
 * the first over the rest). The model is tiny and random, so these are the engine's and the
 * grammar's overheads, not a real model's speed — a 0.5B Q4_K_M model is one to two orders of
 * magnitude slower.
 *
 * The browser engine (wllama) is timed on the same model with the same prompt and limits
 * (`GGUF_BENCH`) in its own section, printed right after this one.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callJsonSchema, toolSpecs } from '../src/agent/call-schema.ts';
import { buildContext } from '../src/agent/context.ts';
import type { ChatMessage, EngineTimings } from '../src/agent/model.ts';
import { defaultThreads, loadGgufNode } from '../src/agent/models/gguf-node.ts';
import { buildPrompt } from '../src/agent/prompt.ts';
import { createEngine } from '../src/engine/create.ts';
import { MemoryWorkspace } from '../src/workspace/memory/memory-workspace.ts';
import { makeTestModel, TEST_MODEL_FILE } from '../tests/support/gguf/test-model.ts';
import type { BenchRow, BenchSection, BenchSectionDef } from './table.ts';

/** What both engines' rows are measured on. */
export const GGUF_BENCH = Object.freeze({
  runs: 3,
  jsonMaxTokens: 512,
  freeTextMaxTokens: 128,
  temperature: 0.8,
  contextTokens: 8192,
  task: 'Make add in src/math.js add.',
});

/** The agent's first-step messages and call schema for the bench task; run `run` gets a prompt no earlier run shares, so nothing is cached. */
export function ggufBenchPrompt(run: number): { messages: ChatMessage[]; jsonSchema: object } {
  const specs = toolSpecs(createEngine(new MemoryWorkspace()).tools.values());
  const { messages } = buildContext(
    buildPrompt({ tools: specs, task: GGUF_BENCH.task }),
    [],
    GGUF_BENCH.contextTokens,
    GGUF_BENCH.jsonMaxTokens,
  );
  const [system, ...rest] = messages;
  return {
    messages: [{ role: 'system', content: `Run ${run}. ${system!.content}` }, ...rest],
    jsonSchema: callJsonSchema(specs),
  };
}

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const tps = (x: number): string => `${x.toFixed(0)} tok/s`;

export function ggufSection(): BenchSectionDef {
  return {
    title: 'llama.cpp on the generated test model (node-llama-cpp, CPU)',
    async run(): Promise<BenchSection> {
      const dir = await mkdtemp(join(tmpdir(), 'slm-bench-gguf-'));
      const file = join(dir, TEST_MODEL_FILE);
      await writeFile(file, makeTestModel());
      const threads = defaultThreads();
      const model = await loadGgufNode({ file, contextTokens: GGUF_BENCH.contextTokens, threads });
      try {
        const json: EngineTimings[] = [];
        const free: EngineTimings[] = [];
        let promptTokens = 0;
        for (let run = 0; run < GGUF_BENCH.runs; run++) {
          const { messages, jsonSchema } = ggufBenchPrompt(run);
          const opts = { seed: run, temperature: GGUF_BENCH.temperature };
          const c = await model.complete(messages, { ...opts, jsonSchema, maxTokens: GGUF_BENCH.jsonMaxTokens });
          json.push(c.timings!);
          promptTokens = c.usage!.promptTokens;
          const f = await model.complete(ggufBenchPrompt(run + 1000).messages, {
            ...opts,
            maxTokens: GGUF_BENCH.freeTextMaxTokens,
          });
          free.push(f.timings!);
        }
        const rows: BenchRow[] = [
          {
            figure: `prefill, first step (${promptTokens}-token prompt, ${threads} thread${threads === 1 ? '' : 's'})`,
            ours: tps(median(json.map((t) => t.prefillTps))),
            baseline: '',
          },
          { figure: 'decode, JSON mode (grammar on)', ours: tps(median(json.map((t) => t.decodeTps))), baseline: '' },
          {
            figure: `decode, free text (${GGUF_BENCH.freeTextMaxTokens} tokens at most)`,
            ours: tps(median(free.map((t) => t.decodeTps))),
            baseline: '',
          },
        ];
        return { title: this.title, unit: `median of ${GGUF_BENCH.runs} runs`, rows };
      } finally {
        await model.dispose();
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}
