/**
 * A GGUF v3 file writer: typed metadata, then the tensor table, then the tensor data, each
 * tensor aligned to `general.alignment` (32). Pure TypeScript over Uint8Array/DataView, so it
 * runs in Node, a worker or a page. Spec: ggml's docs/gguf.md.
 */

export const GGUF_MAGIC = 0x46554747; // "GGUF" read as a little-endian u32
export const GGUF_VERSION = 3;
export const GGUF_ALIGNMENT = 32;

/** Metadata value types, as numbered in the GGUF spec. */
export const GgufType = {
  u8: 0,
  i8: 1,
  u16: 2,
  i16: 3,
  u32: 4,
  i32: 5,
  f32: 6,
  bool: 7,
  string: 8,
  array: 9,
  u64: 10,
  i64: 11,
  f64: 12,
} as const;
type ScalarKind = 'u32' | 'i32' | 'f32' | 'bool' | 'string';

/** One metadata value: a scalar of a kind, or an array of one scalar kind. */
export type GgufValue =
  | { readonly kind: ScalarKind; readonly value: number | boolean | string }
  | { readonly kind: 'array'; readonly of: ScalarKind; readonly values: readonly (number | boolean | string)[] };

/** Tensor element types used here (ggml_type numbering). */
export const GgmlType = { F32: 0, F16: 1 } as const;
export type GgmlTypeName = keyof typeof GgmlType;

export interface GgufTensor {
  readonly name: string;
  /** ggml order: dims[0] is the innermost (row length). */
  readonly dims: readonly number[];
  readonly type: GgmlTypeName;
  readonly data: Float32Array;
}

const text = new TextEncoder();

/** A growable little-endian byte buffer. */
class Bytes {
  private buf = new Uint8Array(1 << 16);
  private view = new DataView(this.buf.buffer);
  length = 0;

  private room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.length + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }
  u32(v: number): void {
    this.room(4);
    this.view.setUint32(this.length, v, true);
    this.length += 4;
  }
  i32(v: number): void {
    this.room(4);
    this.view.setInt32(this.length, v, true);
    this.length += 4;
  }
  u64(v: number): void {
    this.room(8);
    this.view.setBigUint64(this.length, BigInt(v), true);
    this.length += 8;
  }
  f32(v: number): void {
    this.room(4);
    this.view.setFloat32(this.length, v, true);
    this.length += 4;
  }
  u8(v: number): void {
    this.room(1);
    this.buf[this.length++] = v;
  }
  raw(b: Uint8Array): void {
    this.room(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }
  str(s: string): void {
    const b = text.encode(s);
    this.u64(b.length);
    this.raw(b);
  }
  padTo(alignment: number): void {
    while (this.length % alignment !== 0) this.u8(0);
  }
  bytes(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}

function writeScalar(out: Bytes, kind: ScalarKind, v: number | boolean | string): void {
  if (kind === 'string') out.str(String(v));
  else if (kind === 'bool') out.u8(v ? 1 : 0);
  else if (kind === 'u32') out.u32(Number(v));
  else if (kind === 'i32') out.i32(Number(v));
  else out.f32(Number(v));
}

function writeValue(out: Bytes, v: GgufValue): void {
  if (v.kind !== 'array') {
    out.u32(GgufType[v.kind]);
    writeScalar(out, v.kind, v.value);
    return;
  }
  out.u32(GgufType.array);
  out.u32(GgufType[v.of]);
  out.u64(v.values.length);
  for (const x of v.values) writeScalar(out, v.of, x);
}

/** One float's bits, reused by every conversion (a new array per value made a 10-million-value tensor take a minute). */
const scratch = new Float32Array(1);
const scratchBits = new Uint32Array(scratch.buffer);

/** IEEE 754 half precision bits of a float (round to nearest even, overflow to infinity). */
export function toHalf(value: number): number {
  scratch[0] = value;
  const x = scratchBits[0]!;
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  let mant = x & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  let e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - e;
    let half = mant >>> shift;
    const rest = mant & ((1 << shift) - 1);
    const mid = 1 << (shift - 1);
    if (rest > mid || (rest === mid && half & 1)) half++;
    return sign | half;
  }
  let half = (e << 10) | (mant >>> 13);
  const rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest === 0x1000 && half & 1)) half++;
  return sign | half;
}

function tensorBytes(t: GgufTensor): Uint8Array {
  const count = t.dims.reduce((a, b) => a * b, 1);
  if (count !== t.data.length)
    throw new Error(`tensor ${t.name}: ${t.data.length} values for dims ${t.dims.join('×')}`);
  if (t.type === 'F32') return new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength);
  const half = new Uint16Array(count);
  for (let i = 0; i < count; i++) half[i] = toHalf(t.data[i]!);
  return new Uint8Array(half.buffer);
}

/** The whole file: header, metadata (in the given order), tensor table, aligned data. */
export function writeGguf(metadata: ReadonlyMap<string, GgufValue>, tensors: readonly GgufTensor[]): Uint8Array {
  const out = new Bytes();
  out.u32(GGUF_MAGIC);
  out.u32(GGUF_VERSION);
  out.u64(tensors.length);
  out.u64(metadata.size);
  for (const [key, value] of metadata) {
    out.str(key);
    writeValue(out, value);
  }
  const blobs = tensors.map(tensorBytes);
  let offset = 0;
  tensors.forEach((t, i) => {
    out.str(t.name);
    out.u32(t.dims.length);
    for (const d of t.dims) out.u64(d);
    out.u32(GgmlType[t.type]);
    out.u64(offset);
    offset += blobs[i]!.length;
    offset = Math.ceil(offset / GGUF_ALIGNMENT) * GGUF_ALIGNMENT;
  });
  out.padTo(GGUF_ALIGNMENT);
  for (const b of blobs) {
    out.raw(b);
    out.padTo(GGUF_ALIGNMENT);
  }
  return out.bytes();
}
