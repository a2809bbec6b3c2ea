/**
 * `slm run --model gguf:FILE` through the real CLI on the generated test model: a real
 * llama.cpp engine (node-llama-cpp, CPU) drives the agent loop for several steps; its weights
 * are random, so every call is valid only because decoding is constrained — each raw output is
 * a call the schema accepts, parsed and executed (no retries, no loop-guard refusals) — and the
 * session record names the test model by its file. The window is at most what the file says the
 * model was trained on, and the run says which it used; a prompt that cannot fit that window is
 * not sent.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callJsonSchema, toolSpecs } from '../../src/agent/call-schema.ts';
import { createEngine } from '../../src/engine/create.ts';
import type { Session } from '../../src/session/record.ts';
import { MemoryWorkspace } from '../../src/workspace/memory/memory-workspace.ts';
import { cleanup, runCli, tempRoot, type CliRun } from '../cli/cli-process.ts';
import { makeTestModel, TEST_MODEL_FILE } from '../support/gguf/test-model.ts';
import { schemaProblem } from '../support/json-schema-check.ts';
import { needsNodeLlamaCpp } from '../support/node-llama-cpp.ts';

const hasLlama = needsNodeLlamaCpp('slm run --model gguf:');

const STEPS = 6;
// A random model may well repeat an argument-free call (git_status); with the loop guard set
// above the step limit, every call reaches its tool.
const schema = callJsonSchema(toolSpecs(createEngine(new MemoryWorkspace()).tools.values()));
let run: CliRun;
let session: Session;

beforeAll(async () => {
  if (!hasLlama) return;
  const dir = await tempRoot();
  const root = join(dir, 'project');
  await mkdir(join(root, 'src'), { recursive: true });
  await writeFile(join(root, 'src/math.js'), 'export function add(a, b) {\n  return a - b;\n}\n');
  const model = join(dir, TEST_MODEL_FILE);
  await writeFile(model, makeTestModel());
  const out = join(dir, 'session.json');
  run = await runCli([
    'run',
    '--model',
    `gguf:${model}`,
    '--task',
    'Make add add.',
    '--root',
    root,
    '--max-steps',
    String(STEPS),
    '--context',
    '8192',
    '--temperature',
    '0.8',
    '--seed',
    '7',
    '--settings',
    JSON.stringify({ loop_guard_repeats: STEPS + 1 }),
    '--out',
    out,
  ]);
  session = JSON.parse(await readFile(out, 'utf8')) as Session;
}, 180_000);
afterAll(cleanup);

describe.skipIf(!hasLlama)('slm run --model gguf: on the generated test model', () => {
  it(`runs the loop to its step limit (${STEPS} steps)`, () => {
    expect(run.stdout).toBe(`reached the step limit (${STEPS}) without the final done JSON (${STEPS} steps)\n`);
    expect(run.code).toBe(1);
    expect(session.steps).toHaveLength(STEPS);
  });

  it('writes only calls the schema accepts, each parsed and executed', () => {
    for (const step of session.steps) {
      expect(schemaProblem(JSON.parse(step.raw), schema), step.raw).toBeNull();
      expect(step.call?.tool, step.raw).toBe((JSON.parse(step.raw) as { tool: string }).tool);
    }
    const lines = run.stderr.split('\n').filter((l) => l.startsWith('step '));
    expect(lines).toHaveLength(STEPS);
    for (const line of lines) {
      expect(line).not.toMatch(/\(no call|parse-retry|loop-guard/);
      // Each step's line carries the engine's speed.
      expect(line).toMatch(/\(first token \d+ ms, prefill \d+ tok\/s, decode \d+ tok\/s/);
    }
  });

  it('records the test model by its file name, as a llama.cpp model', () => {
    expect(session.model).toMatchObject({ id: `gguf:${TEST_MODEL_FILE}`, kind: 'gguf', seed: 7, temperature: 0.8 });
  });

  it('runs at the --context asked for when the model was trained on more, and says so', () => {
    expect(run.stderr).toContain(
      'context window: 8,192 tokens (--context 8192; the model was trained on 8,192, llama.context_length)\n',
    );
    expect(session.settings.agent.contextTokens).toBe(8192);
  });

  it('a model trained on 2,048 tokens runs at 2,048 when the default asks for 4,096, and says so', async () => {
    const dir = await tempRoot();
    const model = join(dir, TEST_MODEL_FILE);
    await writeFile(model, makeTestModel({ contextLength: 2048 }));
    const out = join(dir, 'short.json');
    const short = await runCli([
      'run',
      '--model',
      `gguf:${model}`,
      '--task',
      'Look.',
      '--root',
      dir,
      '--max-steps',
      '1',
      '--out',
      out,
    ]);
    expect(short.stderr).toContain(
      'context window: 2,048 tokens, the context the model was trained on (llama.context_length), less than the default 4,096\n',
    );
    const recorded = JSON.parse(await readFile(out, 'utf8')) as Session;
    // The byte-level vocabulary spends more tokens on the step-1 prompt than 2,048 leaves with the
    // reply's reserve: counted with the model's tokenizer, it is not sent, and the run says why.
    expect(short.stdout).toMatch(
      /^the prompt does not fit the model's context window, so it was not sent: it needs [\d,]+ tokens \(counted with the model's tokenizer: .*for a window of 2,048 tokens\. What would make it fit: a larger context window/,
    );
    expect(recorded.steps).toEqual([]);
    expect(recorded.settings.agent.contextTokens).toBe(2048);
    expect(recorded.settings.engine.context_window_tokens).toBe(2048);
  }, 120_000);
});
