/**
 * Counting text in a GGUF model's own tokens where the engine offers no tokenizer (llama.cpp in
 * WebAssembly answers completions only): the file's byte-level BPE vocabulary — its tokens, its
 * merges and its pre-tokenizer — applied as llama.cpp applies it. The llama.cpp worker reads the
 * vocabulary from the file's header and sends it once with the loaded model; the engine worker
 * then counts synchronously, as the budget needs, with no request per text.
 *
 * - Pre-tokenizers: llama.cpp's regular expressions for `qwen2` (Qwen2.5, Qwen3: each digit a
 *   piece) and `llama-bpe` (Llama 3: up to three digits a piece, and a piece that is a token of
 *   its own is never split by the merges). A file with another pre-tokenizer, or a SentencePiece
 *   vocabulary, gets no counter: its budget stays an estimate, calibrated from the reported usage.
 * - User-defined tokens (`<think>`, `<tool_call>` …) are one token wherever they occur, as
 *   llama.cpp reads them even in plain text; control tokens (`<|im_start|>`, and user-defined ones
 *   spelled `<|…|>`, which llama.cpp makes control tokens) in a message's text are read as plain
 *   text, as the Node engine counts them.
 */
import { z } from 'zod';
import { metaString, type GgufHeader } from './gguf-header.ts';
import { gpt2Chars } from './utf8-bans.ts';

/** llama.cpp's pre-tokenizer patterns, by the family it groups each `tokenizer.ggml.pre` name into. */
const PATTERNS = {
  qwen2:
    "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
  llama3:
    "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
} as const;

type Pre = keyof typeof PATTERNS;

/** `tokenizer.ggml.pre` values llama.cpp tokenizes with each pattern. */
const PRE_OF: Readonly<Record<string, Pre>> = {
  qwen2: 'qwen2',
  'deepseek-r1-qwen': 'qwen2',
  llama3: 'llama3',
  'llama-v3': 'llama3',
  'llama-bpe': 'llama3',
  falcon3: 'llama3',
};

/** A byte-level BPE vocabulary as it crosses from the llama.cpp worker (validated on arrival). */
export const bpeVocabularySchema = z.object({
  pre: z.enum(['qwen2', 'llama3']),
  /** Every token, in id order. */
  tokens: z.array(z.string()),
  /** "a b" pairs, in rank order. */
  merges: z.array(z.string().regex(/^\S+ \S+$/)),
  /** Tokens read as one wherever they occur. */
  userDefined: z.array(z.string().min(1)),
});

export type BpeVocabulary = z.infer<typeof bpeVocabularySchema>;

/** llama.cpp's `llama_token_type` of a user-defined token. */
const USER_DEFINED = 4;

/** The vocabulary of a GGUF file whose tokenizer this module can apply; undefined for any other. */
export function bpeVocabulary(h: GgufHeader): BpeVocabulary | undefined {
  if (metaString(h, 'tokenizer.ggml.model') !== 'gpt2') return undefined;
  const pre = PRE_OF[metaString(h, 'tokenizer.ggml.pre') ?? ''];
  const tokens = h.meta.get('tokenizer.ggml.tokens');
  const merges = h.meta.get('tokenizer.ggml.merges');
  const types = h.meta.get('tokenizer.ggml.token_type');
  if (!pre || !Array.isArray(tokens) || !Array.isArray(merges)) return undefined;
  if (!tokens.every((t) => typeof t === 'string') || !merges.every((m) => typeof m === 'string')) return undefined;
  // llama.cpp reads a user-defined token spelled `<|…|>` (Qwen's FIM markers) as a control token.
  const userDefined = Array.isArray(types)
    ? (tokens as string[]).filter((t, i) => types[i] === USER_DEFINED && t.length > 0 && !/^<\|.*\|>$/.test(t))
    : [];
  return { pre, tokens: tokens as string[], merges: merges as string[], userDefined };
}

/** Words whose count is remembered (a run reads the same words again and again). */
const WORD_CACHE = 65_536;

/** Counts a text's tokens with `v`, as llama.cpp tokenizes it (no begin-of-text token). */
export function bpeCounter(v: BpeVocabulary): (text: string) => number {
  const ranks = new Map<string, number>();
  v.merges.forEach((m, i) => {
    if (!ranks.has(m)) ranks.set(m, i);
  });
  const whole = v.pre === 'llama3' ? new Set(v.tokens) : undefined;
  const pattern = new RegExp(PATTERNS[v.pre], 'gu');
  const special = v.userDefined.length
    ? new RegExp(
        [...v.userDefined]
          .sort((a, b) => b.length - a.length)
          .map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('|'),
        'g',
      )
    : undefined;
  const utf8 = new TextEncoder();
  const cache = new Map<string, number>();

  const word = (piece: string): number => {
    const hit = cache.get(piece);
    if (hit !== undefined) return hit;
    const chars = gpt2Chars(utf8.encode(piece));
    const n = whole?.has(chars) ? 1 : merge([...chars], ranks);
    if (cache.size >= WORD_CACHE) cache.clear();
    cache.set(piece, n);
    return n;
  };
  const plain = (text: string): number => {
    let n = 0;
    for (const m of text.matchAll(pattern)) n += word(m[0]);
    return n;
  };
  return (text) => {
    if (!special) return plain(text);
    let n = 0;
    let at = 0;
    for (const m of text.matchAll(special)) {
      n += plain(text.slice(at, m.index)) + 1;
      at = m.index + m[0].length;
    }
    return n + plain(text.slice(at));
  };
}

/** The symbols left once the lowest-ranked adjacent pair is merged, leftmost first, until no pair has a rank. */
function merge(symbols: string[], ranks: ReadonlyMap<string, number>): number {
  while (symbols.length > 1) {
    let best = Infinity;
    let at = -1;
    for (let i = 0; i < symbols.length - 1; i++) {
      const r = ranks.get(`${symbols[i]} ${symbols[i + 1]}`);
      if (r !== undefined && r < best) {
        best = r;
        at = i;
      }
    }
    if (at < 0) break;
    symbols.splice(at, 2, symbols[at]! + symbols[at + 1]!);
  }
  return symbols.length;
}
