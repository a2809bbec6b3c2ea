/**
 * The test model: a tiny llama-architecture GGUF with seeded random weights, generated at test
 * time (no weights can be downloaded here). It is not a language model — its tool calls are
 * valid only because decoding is constrained by the call's JSON schema, which is what the tests
 * prove. Runs in llama.cpp (node-llama-cpp, wllama) like any GGUF: a SentencePiece "llama"
 * vocabulary with byte fallback (`<0x00>`…`<0xFF>`), ChatML control tokens and a ChatML chat
 * template, and enough pieces (ASCII characters, JSON punctuation, the tool names) to spell a
 * call in few tokens.
 *
 * One shape tweak keeps its calls short: embedding dimension 0 is a constant larger than the
 * rest (and the blocks add little to it), so after the final norm it is a steady signal the
 * output head turns into a lean towards tokens that close a string and away from `done`; every
 * other weight is random. Without it a random model fills strings until the token limit.
 */
import { mulberry32 } from '../../../src/agent/evolve.ts';
import { qwenVocab } from './qwen-vocab.ts';
import { writeGguf, type GgufTensor, type GgufValue } from './writer.ts';

/** `general.name` of the generated model; sessions run on it are labelled with this name. */
export const TEST_MODEL_NAME = 'slm-test-tiny-random';
/** The file name the tests, the bench and the e2e write it under. */
export const TEST_MODEL_FILE = `${TEST_MODEL_NAME}.gguf`;
/** `general.name` of the model with Qwen's real vocabulary (`vocabulary: 'qwen'`). */
export const QWEN_TEST_MODEL_NAME = 'slm-test-qwen-vocab-random';

/**
 * The tokenizer: `tiny`, the small SentencePiece vocabulary below (~380 KB model, its output
 * head leaning towards short calls), or `qwen`, Qwen2.5/Qwen3's real 151k BPE vocabulary and
 * merges (qwen-vocab.ts; ~19 MB, the output head tied to the embedding) — for tests that count
 * real tokens through llama.cpp.
 */
type TestVocabulary = 'tiny' | 'qwen';

export interface TestModelOptions {
  /** Weights seed; the same seed gives the same bytes. */
  readonly seed?: number;
  readonly embedding?: number;
  readonly layers?: number;
  readonly heads?: number;
  readonly kvHeads?: number;
  readonly feedForward?: number;
  readonly contextLength?: number;
  readonly vocabulary?: TestVocabulary;
}

export const TEST_MODEL_DEFAULTS = Object.freeze({
  seed: 1,
  embedding: 64,
  layers: 2,
  heads: 4,
  kvHeads: 2,
  feedForward: 128,
  contextLength: 8192,
  vocabulary: 'tiny' as TestVocabulary,
});

/** SentencePiece token types (llama.cpp's llama_token_type). */
const TokenType = { normal: 1, unknown: 2, control: 3, byte: 6 } as const;
/** SentencePiece's visible space. */
const SPACE = '\u2581';

/** Pieces beyond single characters: JSON punctuation, the call's keys, tool names, common words. */
const PIECES = [
  '{"',
  '":',
  '":"',
  '","',
  '"}',
  '"},',
  '"}}',
  '":{"',
  '":{}',
  '}}',
  '":[',
  '"]',
  '"],',
  ',"',
  '\\n',
  '  ',
  'thought',
  'tool',
  'args',
  'path',
  'content',
  'summary',
  'old_str',
  'new_str',
  'pattern',
  'command',
  'offset',
  'limit',
  'items',
  'ws_read',
  'ws_write',
  'ws_edit',
  'ws_list',
  'ws_glob',
  'ws_grep',
  'ws_delete',
  'ws_mv',
  'ws_patch',
  'ws_replace_lines',
  'ws_shell',
  'ws_test',
  'ws_todo',
  'ws_skill',
  'git_diff',
  'git_status',
  'done',
  'src',
  'test',
  'index',
  'README',
  '.md',
  '.js',
  '.ts',
  '.py',
  '.json',
  'file',
  'function',
  'return',
  'const',
  'import',
  'export',
  `${SPACE}the`,
  `${SPACE}a`,
  `${SPACE}to`,
  `${SPACE}file`,
  `${SPACE}test`,
  `${SPACE}read`,
  `${SPACE}is`,
  `${SPACE}and`,
];

/**
 * How far the output head leans towards a token, through the steady channel: towards those that
 * close a string (calls stay short), away from spelling `done` (a run lasts long enough to
 * test). A one-character lean also applies to that character's byte token, which spells the same.
 */
const LEANS: ReadonlyMap<string, number> = new Map([
  ...['"', '"}', '"}}', '"]', '"],', '"},', '","'].map((t) => [t, 0.8] as const),
  ...['d', 'do', 'don', 'done'].map((t) => [t, -1.5] as const),
]);

const SPECIALS = [
  { text: '<unk>', type: TokenType.unknown },
  { text: '<s>', type: TokenType.control },
  { text: '</s>', type: TokenType.control },
  { text: '<|im_start|>', type: TokenType.control },
  { text: '<|im_end|>', type: TokenType.control },
] as const;

export const CHATML_TEMPLATE =
  "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}{% endfor %}" +
  "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

export interface TestVocab {
  readonly tokens: readonly string[];
  readonly scores: readonly number[];
  readonly types: readonly number[];
}

/** Specials, the 256 byte tokens, `▁` and printable ASCII, then each piece with all its prefixes (so SentencePiece merges reach it). */
export function testVocab(): TestVocab {
  const tokens: string[] = [];
  const scores: number[] = [];
  const types: number[] = [];
  const seen = new Set<string>();
  const add = (text: string, type: number, score: number) => {
    if (seen.has(text)) return;
    seen.add(text);
    tokens.push(text);
    types.push(type);
    scores.push(score);
  };
  for (const s of SPECIALS) add(s.text, s.type, 0);
  for (let b = 0; b < 256; b++) add(`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`, TokenType.byte, 0);
  add(SPACE, TokenType.normal, -1);
  for (let c = 0x21; c < 0x7f; c++) add(String.fromCharCode(c), TokenType.normal, -1);
  // Longer pieces score higher, so SentencePiece's merges prefer them.
  for (const piece of PIECES) {
    const chars = [...piece];
    for (let n = 2; n <= chars.length; n++) add(chars.slice(0, n).join(''), TokenType.normal, n - 1);
  }
  return { tokens, scores, types };
}

/** A token's text, with an ASCII byte token (`<0x64>`) read as its character: it spells the same. */
function spelled(token: string): string {
  const byte = /^<0x([0-7][0-9A-F])>$/.exec(token);
  return byte ? String.fromCharCode(parseInt(byte[1]!, 16)) : token;
}

/** The tokenizer's part of the file: its metadata, its size, and the output head's lean per token (null: tied head). */
interface Tokenizer {
  readonly size: number;
  readonly name: string;
  readonly metadata: readonly (readonly [string, GgufValue])[];
  readonly lean: ((token: number) => number) | null;
}

const u32 = (value: number): GgufValue => ({ kind: 'u32', value });
const bool = (value: boolean): GgufValue => ({ kind: 'bool', value });

function tinyTokenizer(): Tokenizer {
  const vocab = testVocab();
  const id = (text: string) => vocab.tokens.indexOf(text);
  return {
    size: vocab.tokens.length,
    name: TEST_MODEL_NAME,
    lean: (t) => LEANS.get(spelled(vocab.tokens[t]!)) ?? 0,
    metadata: [
      ['tokenizer.ggml.model', { kind: 'string', value: 'llama' }],
      ['tokenizer.ggml.tokens', { kind: 'array', of: 'string', values: vocab.tokens }],
      ['tokenizer.ggml.scores', { kind: 'array', of: 'f32', values: vocab.scores }],
      ['tokenizer.ggml.token_type', { kind: 'array', of: 'i32', values: vocab.types }],
      ['tokenizer.ggml.unknown_token_id', u32(id('<unk>'))],
      ['tokenizer.ggml.bos_token_id', u32(id('<s>'))],
      ['tokenizer.ggml.eos_token_id', u32(id('<|im_end|>'))],
      ['tokenizer.ggml.padding_token_id', u32(id('</s>'))],
      ['tokenizer.ggml.add_bos_token', bool(false)],
      ['tokenizer.ggml.add_eos_token', bool(false)],
      // With a prefix space, llama.cpp's JSON-mode sampler setup fails ("Failed to initialize samplers").
      ['tokenizer.ggml.add_space_prefix', bool(false)],
    ],
  };
}

function qwenTokenizer(): Tokenizer {
  const v = qwenVocab();
  return {
    size: v.tokens.length,
    name: QWEN_TEST_MODEL_NAME,
    lean: null,
    metadata: [
      ['tokenizer.ggml.model', { kind: 'string', value: 'gpt2' }],
      ['tokenizer.ggml.pre', { kind: 'string', value: 'qwen2' }],
      ['tokenizer.ggml.tokens', { kind: 'array', of: 'string', values: v.tokens }],
      ['tokenizer.ggml.token_type', { kind: 'array', of: 'i32', values: v.types }],
      ['tokenizer.ggml.merges', { kind: 'array', of: 'string', values: v.merges }],
      ['tokenizer.ggml.bos_token_id', u32(v.ids.endOfText)],
      ['tokenizer.ggml.eos_token_id', u32(v.ids.imEnd)],
      ['tokenizer.ggml.padding_token_id', u32(v.ids.endOfText)],
      ['tokenizer.ggml.add_bos_token', bool(false)],
      ['tokenizer.ggml.add_eos_token', bool(false)],
    ],
  };
}

/** The model file's bytes, deterministic for the options. */
export function makeTestModel(options: TestModelOptions = {}): Uint8Array {
  const o = { ...TEST_MODEL_DEFAULTS, ...options };
  if (o.embedding % o.heads !== 0 || o.heads % o.kvHeads !== 0)
    throw new Error('test model: embedding must divide into heads, heads into kv heads');
  const headDim = o.embedding / o.heads;
  const kvDim = headDim * o.kvHeads;
  const tokenizer = o.vocabulary === 'qwen' ? qwenTokenizer() : tinyTokenizer();
  const nVocab = tokenizer.size;
  const rand = mulberry32(o.seed);
  const uniform = (n: number, scale: number) => {
    const a = new Float32Array(n);
    for (let i = 0; i < n; i++) a[i] = (rand() * 2 - 1) * scale;
    return a;
  };
  const ones = (n: number) => new Float32Array(n).fill(1);
  const E = o.embedding;

  const embd = uniform(E * nVocab, 0.1);
  for (let t = 0; t < nVocab; t++) embd[t * E] = 3; // the steady channel (see the file comment)
  // Drawn right after the embedding, so the tiny model's weights stay what they always were.
  const lean = tokenizer.lean;
  const output = lean && uniform(E * nVocab, 0.4);
  if (output) for (let t = 0; t < nVocab; t++) output[t * E] = lean(t);

  const tensors: GgufTensor[] = [{ name: 'token_embd.weight', dims: [E, nVocab], type: 'F16', data: embd }];
  for (let l = 0; l < o.layers; l++) {
    const matrix = (name: string, cols: number, rows: number, scale: number): GgufTensor => ({
      name: `blk.${l}.${name}.weight`,
      dims: [cols, rows],
      type: 'F16',
      data: uniform(cols * rows, scale),
    });
    tensors.push(
      { name: `blk.${l}.attn_norm.weight`, dims: [E], type: 'F32', data: ones(E) },
      matrix('attn_q', E, E, 0.3),
      matrix('attn_k', E, kvDim, 0.3),
      matrix('attn_v', E, kvDim, 0.3),
      matrix('attn_output', E, E, 0.05),
      { name: `blk.${l}.ffn_norm.weight`, dims: [E], type: 'F32', data: ones(E) },
      matrix('ffn_gate', E, o.feedForward, 0.3),
      matrix('ffn_up', E, o.feedForward, 0.3),
      matrix('ffn_down', o.feedForward, E, 0.05),
    );
  }
  tensors.push({ name: 'output_norm.weight', dims: [E], type: 'F32', data: ones(E) });
  if (output) tensors.push({ name: 'output.weight', dims: [E, nVocab], type: 'F16', data: output });

  const metadata = new Map<string, GgufValue>([
    ['general.architecture', { kind: 'string', value: 'llama' }],
    ['general.name', { kind: 'string', value: tokenizer.name }],
    [
      'general.description',
      { kind: 'string', value: `Random weights (seed ${o.seed}) for tests: not a language model.` },
    ],
    ['general.file_type', u32(1)], // mostly F16
    ['general.alignment', u32(32)],
    ['llama.context_length', u32(o.contextLength)],
    ['llama.embedding_length', u32(E)],
    ['llama.block_count', u32(o.layers)],
    ['llama.feed_forward_length', u32(o.feedForward)],
    ['llama.attention.head_count', u32(o.heads)],
    ['llama.attention.head_count_kv', u32(o.kvHeads)],
    ['llama.attention.layer_norm_rms_epsilon', { kind: 'f32', value: 1e-5 }],
    ['llama.rope.dimension_count', u32(headDim)],
    ['llama.rope.freq_base', { kind: 'f32', value: 10000 }],
    ['llama.vocab_size', u32(nVocab)],
    ...tokenizer.metadata,
    ['tokenizer.chat_template', { kind: 'string', value: CHATML_TEMPLATE }],
  ]);
  return writeGguf(metadata, tensors);
}
