/**
 * A command's output, bounded while it runs: the first half of the cap and the last half are
 * kept, every byte is counted, and the text says where bytes were dropped. Platform-neutral
 * (Uint8Array and TextDecoder, no Node Buffer), so the Node backend and the WebContainer host
 * share it, and the engine and the model see the same marker from either backend.
 */

export class CappedBytes {
  private readonly head: Uint8Array[] = [];
  private headBytes = 0;
  private tail: Uint8Array[] = [];
  private tailBytes = 0;
  /** Every byte pushed, kept or not. */
  totalBytes = 0;
  private readonly headCap: number;
  private readonly tailCap: number;

  /** Keeps at most `maxBytes`: `ceil(maxBytes / 2)` from the start, the rest from the end. */
  constructor(maxBytes: number) {
    if (!Number.isInteger(maxBytes) || maxBytes < 0)
      throw new RangeError(`CappedBytes: maxBytes must be a non-negative integer, got ${maxBytes}`);
    this.headCap = Math.ceil(maxBytes / 2);
    this.tailCap = maxBytes - this.headCap;
  }

  push(chunk: Uint8Array): void {
    this.totalBytes += chunk.length;
    const room = this.headCap - this.headBytes;
    if (room > 0) {
      const part = chunk.subarray(0, room);
      this.head.push(part);
      this.headBytes += part.length;
      chunk = chunk.subarray(part.length);
    }
    if (chunk.length === 0 || this.tailCap === 0) return;
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    // Drop whole chunks from the front while the rest still covers the tail, then trim the first.
    while (this.tail.length > 1 && this.tailBytes - this.tail[0]!.length >= this.tailCap) {
      this.tailBytes -= this.tail.shift()!.length;
    }
    const excess = this.tailBytes - this.tailCap;
    if (excess > 0) {
      this.tail[0] = this.tail[0]!.subarray(excess);
      this.tailBytes -= excess;
    }
  }

  get truncated(): boolean {
    return this.totalBytes > this.headBytes + this.tailBytes;
  }

  /** The kept text; where bytes were dropped, a marker line says how many. */
  text(): string {
    // Untruncated, head and tail are one run of bytes: decode them together, so a character
    // split between the two halves stays whole.
    if (!this.truncated) return decode([...this.head, ...this.tail], this.headBytes + this.tailBytes);
    const head = decode(this.head, this.headBytes);
    const tail = decode(this.tail, this.tailBytes);
    const omitted = this.totalBytes - this.headBytes - this.tailBytes;
    return `${head}\n… [${omitted} bytes of output omitted] …\n${tail}`;
  }
}

/** UTF-8 text of the chunks; a character cut at the edge of the head or tail becomes U+FFFD. */
function decode(chunks: readonly Uint8Array[], bytes: number): string {
  const all = new Uint8Array(bytes);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.length;
  }
  return new TextDecoder().decode(all);
}
