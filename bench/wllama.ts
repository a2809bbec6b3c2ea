/**
 * llama.cpp in WebAssembly (wllama, the browser's CPU engine) in headless Chromium, on the
 * generated test model with the same prompts, limits and seeds as the node-llama-cpp section
 * (`GGUF_BENCH`, bench/gguf.ts): prefill and decode tokens/s as llama.cpp itself times them,
 * for the agent's first step in JSON mode (the tool-call grammar, the UTF-8 byte bans) and
 * for free text. A page on loopback with the COOP/COEP headers loads the package's own ESM
 * build and wasm, with the thread count the app would pick (wasm-threads.ts).
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import type { ChatMessage } from '../src/agent/model.ts';
import { readGgufHeader } from '../src/agent/models/gguf-header.ts';
import { bannedTokenIds } from '../src/agent/models/utf8-bans.ts';
import { makeTestModel } from '../tests/support/gguf/test-model.ts';
import { GGUF_BENCH, ggufBenchPrompt } from './gguf.ts';
import type { BenchRow, BenchSection, BenchSectionDef } from './table.ts';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const ESM = fileURLToPath(new URL('../node_modules/@wllama/wllama/esm/', import.meta.url));

/** The page: `bench(p)` loads the model and answers every request of `p.runs` in order, returning llama.cpp's timings. */
const PAGE = `<!doctype html><meta charset="utf-8"><title>wllama bench</title><script type="module">
import { Wllama } from '/esm/index.js';
window.bench = async (p) => {
  const model = await (await fetch('/model.gguf')).blob();
  const w = new Wllama({ default: '/esm/wasm/wllama.wasm' }, { suppressNativeLog: true });
  w.setCompat(null);
  const threads = crossOriginIsolated ? Math.max(1, Math.min(8, Math.floor(navigator.hardwareConcurrency / 2))) : 1;
  await w.loadModel([model], { n_ctx: p.contextTokens, n_threads: threads, n_gpu_layers: 0, n_parallel: 1, jinja: true });
  const out = [];
  for (const r of p.runs) {
    let last;
    await w.createChatCompletion({ ...r, stream: true, cache_prompt: true, onData: (c) => (last = c) });
    out.push(last.timings);
  }
  await w.exit();
  return { threads, timings: out };
};
</script>`;

interface Timings {
  readonly prompt_n: number;
  readonly prompt_per_second: number;
  readonly predicted_per_second: number;
}

function serve(model: Uint8Array): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    res.setHeader('cross-origin-opener-policy', 'same-origin');
    res.setHeader('cross-origin-embedder-policy', 'require-corp');
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === '/') return void res.setHeader('content-type', 'text/html').end(PAGE);
    if (path === '/model.gguf') return void res.end(Buffer.from(model));
    if (path.startsWith('/esm/') && !path.includes('..')) {
      try {
        const body = readFileSync(ESM + path.slice('/esm/'.length));
        res.setHeader('content-type', path.endsWith('.wasm') ? 'application/wasm' : 'text/javascript');
        return void res.end(body);
      } catch {
        // not a file of the package: 404 below
      }
    }
    res.writeHead(404).end();
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
        close: () => new Promise((r) => server.close(() => r())),
      }),
    ),
  );
}

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const tps = (x: number): string => `${x.toFixed(0)} tok/s`;

export function wllamaSection(): BenchSectionDef {
  const title = 'llama.cpp in WebAssembly on the generated test model (wllama, headless Chromium, CPU)';
  return {
    title,
    async run(): Promise<BenchSection> {
      const bytes = makeTestModel();
      const bans = bannedTokenIds(await readGgufHeader(new Blob([bytes.slice()]))).map((id) => [id, false]);
      const request = (messages: ChatMessage[], run: number, extra: object) => ({
        messages,
        seed: run,
        temperature: GGUF_BENCH.temperature,
        logit_bias: bans,
        ...extra,
      });
      const runs = [];
      for (let run = 0; run < GGUF_BENCH.runs; run++) {
        const { messages, jsonSchema } = ggufBenchPrompt(run);
        runs.push(
          request(messages, run, {
            max_tokens: GGUF_BENCH.jsonMaxTokens,
            response_format: {
              type: 'json_schema',
              json_schema: { name: 'tool_call', schema: jsonSchema, strict: true },
            },
          }),
        );
        runs.push(request(ggufBenchPrompt(run + 1000).messages, run, { max_tokens: GGUF_BENCH.freeTextMaxTokens }));
      }
      const server = await serve(bytes);
      const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
      try {
        const page = await browser.newPage();
        await page.goto(server.url);
        await page.waitForFunction(() => 'bench' in window);
        const r = (await page.evaluate((p) => (window as unknown as { bench(p: unknown): Promise<unknown> }).bench(p), {
          contextTokens: GGUF_BENCH.contextTokens,
          runs,
        })) as { threads: number; timings: Timings[] };
        const json = r.timings.filter((_, i) => i % 2 === 0);
        const free = r.timings.filter((_, i) => i % 2 === 1);
        const rows: BenchRow[] = [
          {
            figure: `prefill, first step (${json[0]!.prompt_n}-token prompt, ${r.threads} thread${r.threads === 1 ? '' : 's'})`,
            ours: tps(median(json.map((t) => t.prompt_per_second))),
            baseline: 'node-llama-cpp above',
          },
          {
            figure: 'decode, JSON mode (grammar on)',
            ours: tps(median(json.map((t) => t.predicted_per_second))),
            baseline: 'node-llama-cpp above',
          },
          {
            figure: `decode, free text (${GGUF_BENCH.freeTextMaxTokens} tokens at most)`,
            ours: tps(median(free.map((t) => t.predicted_per_second))),
            baseline: 'node-llama-cpp above',
          },
        ];
        return { title, unit: `median of ${GGUF_BENCH.runs} runs, llama.cpp's timings`, rows };
      } finally {
        await browser.close();
        await server.close();
      }
    },
  };
}
