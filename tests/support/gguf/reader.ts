/**
 * Reads a GGUF file's header back: version, metadata and the tensor table (names, dims, types,
 * offsets). Tensor data is not decoded. The counterpart of `writer.ts`, for tests.
 */
import { GGUF_ALIGNMENT, GGUF_MAGIC, GgufType } from './writer.ts';

export type GgufScalar = number | bigint | boolean | string;

export interface GgufTensorInfo {
  readonly name: string;
  readonly dims: readonly number[];
  readonly type: number;
  readonly offset: number;
}

export interface GgufHeader {
  readonly version: number;
  readonly metadata: ReadonlyMap<string, GgufScalar | readonly GgufScalar[]>;
  readonly tensors: readonly GgufTensorInfo[];
  /** Where tensor data begins (aligned). */
  readonly dataOffset: number;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

export function readGgufHeader(bytes: Uint8Array): GgufHeader {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  const u32 = () => ((at += 4), view.getUint32(at - 4, true));
  const u64 = () => ((at += 8), Number(view.getBigUint64(at - 8, true)));
  const str = () => {
    const n = u64();
    at += n;
    return utf8.decode(bytes.subarray(at - n, at));
  };
  const scalar = (type: number): GgufScalar => {
    switch (type) {
      case GgufType.u8:
        return view.getUint8(at++);
      case GgufType.i8:
        return view.getInt8(at++);
      case GgufType.u16:
        return ((at += 2), view.getUint16(at - 2, true));
      case GgufType.i16:
        return ((at += 2), view.getInt16(at - 2, true));
      case GgufType.u32:
        return u32();
      case GgufType.i32:
        return ((at += 4), view.getInt32(at - 4, true));
      case GgufType.f32:
        return ((at += 4), view.getFloat32(at - 4, true));
      case GgufType.bool:
        return view.getUint8(at++) !== 0;
      case GgufType.string:
        return str();
      case GgufType.u64:
        return ((at += 8), view.getBigUint64(at - 8, true));
      case GgufType.i64:
        return ((at += 8), view.getBigInt64(at - 8, true));
      case GgufType.f64:
        return ((at += 8), view.getFloat64(at - 8, true));
      default:
        throw new Error(`GGUF: unknown value type ${type} at byte ${at}`);
    }
  };
  if (u32() !== GGUF_MAGIC) throw new Error('GGUF: bad magic');
  const version = u32();
  const tensorCount = u64();
  const kvCount = u64();
  const metadata = new Map<string, GgufScalar | GgufScalar[]>();
  for (let i = 0; i < kvCount; i++) {
    const key = str();
    const type = u32();
    if (type !== GgufType.array) {
      metadata.set(key, scalar(type));
      continue;
    }
    const of = u32();
    const n = u64();
    const values: GgufScalar[] = [];
    for (let j = 0; j < n; j++) values.push(scalar(of));
    metadata.set(key, values);
  }
  const tensors: GgufTensorInfo[] = [];
  for (let i = 0; i < tensorCount; i++) {
    const name = str();
    const nDims = u32();
    const dims: number[] = [];
    for (let d = 0; d < nDims; d++) dims.push(u64());
    tensors.push({ name, dims, type: u32(), offset: u64() });
  }
  const alignment = Number(metadata.get('general.alignment') ?? GGUF_ALIGNMENT);
  return { version, metadata, tensors, dataOffset: Math.ceil(at / alignment) * alignment };
}
