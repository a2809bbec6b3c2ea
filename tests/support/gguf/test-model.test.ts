import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { qwenVocab } from './qwen-vocab.ts';
import { readGgufHeader } from './reader.ts';
import {
  CHATML_TEMPLATE,
  makeTestModel,
  QWEN_TEST_MODEL_NAME,
  TEST_MODEL_DEFAULTS,
  TEST_MODEL_NAME,
  testVocab,
} from './test-model.ts';
import { testModelFile } from './test-model-file.ts';
import { GgmlType, toHalf } from './writer.ts';

const header = readGgufHeader(makeTestModel());
const meta = (key: string) => header.metadata.get(key);
const E = TEST_MODEL_DEFAULTS.embedding;
const nVocab = testVocab().tokens.length;
const kvDim = (E / TEST_MODEL_DEFAULTS.heads) * TEST_MODEL_DEFAULTS.kvHeads;
const FF = TEST_MODEL_DEFAULTS.feedForward;

describe('the generated test model', () => {
  it('is GGUF v3', () => expect(header.version).toBe(3));

  it.each([
    ['general.architecture', 'llama'],
    ['general.name', TEST_MODEL_NAME],
    ['llama.embedding_length', E],
    ['llama.block_count', TEST_MODEL_DEFAULTS.layers],
    ['llama.attention.head_count', TEST_MODEL_DEFAULTS.heads],
    ['llama.attention.head_count_kv', TEST_MODEL_DEFAULTS.kvHeads],
    ['llama.feed_forward_length', FF],
    ['llama.context_length', TEST_MODEL_DEFAULTS.contextLength],
    ['llama.rope.dimension_count', E / TEST_MODEL_DEFAULTS.heads],
    ['tokenizer.ggml.model', 'llama'],
    ['tokenizer.ggml.add_space_prefix', false],
    ['tokenizer.ggml.add_bos_token', false],
    ['tokenizer.chat_template', CHATML_TEMPLATE],
  ])('metadata %s = %j', (key, value) => expect(meta(key)).toBe(value));

  it('has a SentencePiece vocabulary with byte fallback, ChatML control tokens and the call pieces', () => {
    const tokens = meta('tokenizer.ggml.tokens') as string[];
    const types = meta('tokenizer.ggml.token_type') as number[];
    expect(tokens).toHaveLength(nVocab);
    expect(types).toHaveLength(nVocab);
    expect((meta('tokenizer.ggml.scores') as number[]).length).toBe(nVocab);
    for (let b = 0; b < 256; b++)
      expect(types[tokens.indexOf(`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`)]).toBe(6);
    for (const control of ['<|im_start|>', '<|im_end|>']) expect(types[tokens.indexOf(control)]).toBe(3);
    expect(meta('tokenizer.ggml.eos_token_id')).toBe(tokens.indexOf('<|im_end|>'));
    for (const piece of ['{"', '":', 'tool', 'ws_read', 'args', 'path', 'done', '\u2581', 'a', '~'])
      expect(tokens).toContain(piece);
  });

  it('has the llama tensor table, matrices in F16 and norms in F32, each aligned', () => {
    const expected: [string, number[], number][] = [['token_embd.weight', [E, nVocab], GgmlType.F16]];
    for (let l = 0; l < TEST_MODEL_DEFAULTS.layers; l++) {
      expected.push(
        [`blk.${l}.attn_norm.weight`, [E], GgmlType.F32],
        [`blk.${l}.attn_q.weight`, [E, E], GgmlType.F16],
        [`blk.${l}.attn_k.weight`, [E, kvDim], GgmlType.F16],
        [`blk.${l}.attn_v.weight`, [E, kvDim], GgmlType.F16],
        [`blk.${l}.attn_output.weight`, [E, E], GgmlType.F16],
        [`blk.${l}.ffn_norm.weight`, [E], GgmlType.F32],
        [`blk.${l}.ffn_gate.weight`, [E, FF], GgmlType.F16],
        [`blk.${l}.ffn_up.weight`, [E, FF], GgmlType.F16],
        [`blk.${l}.ffn_down.weight`, [FF, E], GgmlType.F16],
      );
    }
    expected.push(['output_norm.weight', [E], GgmlType.F32], ['output.weight', [E, nVocab], GgmlType.F16]);
    expect(header.tensors.map((t) => [t.name, t.dims, t.type])).toEqual(expected);
    for (const t of header.tensors) expect(t.offset % 32).toBe(0);
    expect(header.dataOffset % 32).toBe(0);
  });

  it('ends with the last tensor, so every tensor lies inside the file', () => {
    const bytes = makeTestModel();
    const last = header.tensors.at(-1)!;
    const size = last.dims.reduce((a, b) => a * b, 1) * 2;
    expect(bytes.length).toBe(Math.ceil((header.dataOffset + last.offset + size) / 32) * 32);
  });

  it('is deterministic for a seed and differs between seeds', () => {
    const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(b);
    expect(same(makeTestModel({ seed: 7 }), makeTestModel({ seed: 7 }))).toBe(true);
    expect(same(makeTestModel({ seed: 7 }), makeTestModel({ seed: 8 }))).toBe(false);
  });

  it('is small', () => expect(makeTestModel().length).toBeLessThan(2_000_000));
});

describe('toHalf', () => {
  it.each([
    [0, 0x0000],
    [-0, 0x8000],
    [1, 0x3c00],
    [-2, 0xc000],
    [0.5, 0x3800],
    [65504, 0x7bff],
    [1e6, 0x7c00],
    [2 ** -24, 0x0001],
    [1 / 3, 0x3555],
  ])('%d → %s', (value, bits) => expect(toHalf(value)).toBe(bits));
});

describe('the generated test model with Qwen’s vocabulary', () => {
  it('carries the real BPE tokenizer, its special tokens and the ChatML template, with a tied output head', async () => {
    const h = readGgufHeader(new Uint8Array(await readFile(await testModelFile({ vocabulary: 'qwen' }))));
    const m = (key: string) => h.metadata.get(key);
    const tokens = m('tokenizer.ggml.tokens') as string[];
    const types = m('tokenizer.ggml.token_type') as number[];
    const v = qwenVocab();
    expect(m('general.name')).toBe(QWEN_TEST_MODEL_NAME);
    expect([m('tokenizer.ggml.model'), m('tokenizer.ggml.pre')]).toEqual(['gpt2', 'qwen2']);
    expect(tokens.length).toBeGreaterThan(151_000);
    expect(tokens).toEqual(v.tokens);
    expect(m('tokenizer.ggml.merges')).toEqual(v.merges);
    expect(v.merges[0]).toBe('Ġ Ġ');
    expect(m('llama.vocab_size')).toBe(tokens.length);
    expect(m('tokenizer.ggml.eos_token_id')).toBe(tokens.indexOf('<|im_end|>'));
    expect(m('tokenizer.ggml.bos_token_id')).toBe(tokens.indexOf('<|endoftext|>'));
    for (const control of ['<|endoftext|>', '<|im_start|>', '<|im_end|>'])
      expect(types[tokens.indexOf(control)]).toBe(3);
    expect(types[tokens.indexOf('<tool_call>')]).toBe(4);
    expect(m('tokenizer.chat_template')).toBe(CHATML_TEMPLATE);
    expect(h.tensors.map((t) => t.name)).not.toContain('output.weight');
  }, 120_000);
});
