/**
 * The tokens that can put invalid UTF-8 into a constrained output. llama.cpp's grammar reads a
 * lone byte as a character of its own, so a stray continuation byte (0x80–0xBF), an overlong
 * lead (0xC0, 0xC1), a byte that never occurs in UTF-8 (0xF5–0xFF) or a lead whose sequence is
 * never finished can all land inside a JSON string — and the engine then fails decoding it
 * ("RuntimeError: Invalid typed array length …"). Banning them costs a coding agent nothing:
 * characters beyond ASCII that are tokens of their own stay allowed.
 *
 * - SentencePiece vocabularies (`tokenizer.ggml.model = llama`) carry byte-fallback tokens
 *   `<0x00>`…`<0xFF>`: every one from `<0x80>` up is banned.
 * - Byte-level BPE vocabularies (`gpt2`) spell each byte as a character (GPT-2's byte map): every
 *   token whose bytes are not complete, valid UTF-8 on their own is banned.
 */
import { metaString, type GgufHeader } from './gguf-header.ts';

/** `tokenizer.ggml.token_type` values (llama.cpp's llama_token_type). */
const NORMAL = 1;
const BYTE = 6;

export function bannedTokenIds(h: GgufHeader): number[] {
  const tokens = h.meta.get('tokenizer.ggml.tokens');
  if (!Array.isArray(tokens)) return [];
  const types = h.meta.get('tokenizer.ggml.token_type');
  const typeOf = (i: number) => (Array.isArray(types) && typeof types[i] === 'number' ? (types[i] as number) : NORMAL);
  const model = metaString(h, 'tokenizer.ggml.model');
  const out: number[] = [];
  tokens.forEach((t, i) => {
    if (typeof t !== 'string') return;
    if (model === 'gpt2' ? typeOf(i) === NORMAL && !isCompleteUtf8(gpt2Bytes(t)) : highByteToken(t, typeOf(i)))
      out.push(i);
  });
  return out;
}

/** A SentencePiece byte token `<0xHH>` for a byte of 0x80 or more. */
function highByteToken(token: string, type: number): boolean {
  const m = /^<0x([0-9A-Fa-f]{2})>$/.exec(token);
  return m !== null && (type === BYTE || type === NORMAL) && parseInt(m[1]!, 16) >= 0x80;
}

/** GPT-2's byte ↔ character map: printable Latin-1 bytes are themselves, the rest are shifted to 256 and up. */
const BYTE_OF_CHAR: ReadonlyMap<number, number> = (() => {
  const printable = (b: number) => (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
  const map = new Map<number, number>();
  let shifted = 0;
  for (let b = 0; b < 256; b++) map.set(printable(b) ? b : 256 + shifted++, b);
  return map;
})();

/** The bytes a byte-level BPE token spells, or null when a character is outside the map (not a byte token). */
export function gpt2Bytes(token: string): Uint8Array | null {
  const out: number[] = [];
  for (const ch of token) {
    const b = BYTE_OF_CHAR.get(ch.codePointAt(0)!);
    if (b === undefined) return null;
    out.push(b);
  }
  return Uint8Array.from(out);
}

const CHAR_OF_BYTE: readonly string[] = (() => {
  const out: string[] = [];
  for (const [ch, b] of BYTE_OF_CHAR) out[b] = String.fromCodePoint(ch);
  return out;
})();

/** Bytes spelled as a byte-level BPE vocabulary spells them (GPT-2's byte map): the inverse of `gpt2Bytes`. */
export function gpt2Chars(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += CHAR_OF_BYTE[b]!;
  return s;
}

const strict = new TextDecoder('utf-8', { fatal: true });

function isCompleteUtf8(bytes: Uint8Array | null): boolean {
  if (bytes === null) return true; // not spelled in bytes: nothing to ban
  try {
    strict.decode(bytes);
    return true;
  } catch {
    return false;
  }
}
