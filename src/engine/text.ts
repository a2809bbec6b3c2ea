/** UTF-8 text helpers shared by the tools. */

const encoder = new TextEncoder();
// ignoreBOM keeps a byte-order mark in the text, so an edit (or a revert) writes it back byte for byte.
const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
const strictDecoder = new TextDecoder('utf-8', { fatal: true });

export function encodeText(s: string): Uint8Array {
  return encoder.encode(s);
}

export function decodeText(b: Uint8Array): string {
  return decoder.decode(b);
}

/** True when the bytes look like a binary file: a NUL byte in the first 8 KB or invalid UTF-8. */
export function looksBinary(b: Uint8Array): boolean {
  const n = Math.min(b.length, 8192);
  for (let i = 0; i < n; i++) if (b[i] === 0) return true;
  try {
    strictDecoder.decode(b.subarray(0, Math.min(b.length, 65536)));
    return false;
  } catch {
    // A multi-byte character cut at the 64 KB boundary is not binary.
    return b.length <= 65536;
  }
}

/** Splits text into lines the way an editor shows them: a final newline does not start an extra line. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * A short content tag of a file's text (from hash-anchored-tools.md): 4 hex digits of FNV-1a
 * over the UTF-16 code units. Shown in ws_read's header and checked by ws_replace_lines.
 */
export function contentTag(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return ((h ^ (h >>> 16)) & 0xffff).toString(16).padStart(4, '0');
}

/** The length of `text` in UTF-8 bytes, without encoding it (a lone surrogate counts as its 3-byte replacement). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}
