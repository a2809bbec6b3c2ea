/**
 * Reads the metadata at the head of a GGUF file (v2/v3, little-endian): the key–value pairs
 * before the tensor data, arrays included. The file is read from its start in growing slices,
 * so a model of gigabytes costs only its header (the vocabulary is most of it).
 */

export type GgufValue = number | bigint | boolean | string | readonly GgufValue[];

export interface GgufHeader {
  readonly version: number;
  readonly tensorCount: bigint;
  readonly meta: ReadonlyMap<string, GgufValue>;
}

/** Something with a size whose bytes can be read in slices: a Blob or a File. */
export interface ByteSource {
  readonly size: number;
  slice(start: number, end: number): { arrayBuffer(): Promise<ArrayBuffer> };
}

/** Thrown when the slice read so far ends inside the header. */
class NeedMore extends Error {}

export class GgufFormatError extends Error {
  override name = 'GgufFormatError';
}

const FIRST_SLICE = 1 << 20;

/** The header of `file`; a GgufFormatError says why it is not a GGUF file. */
export async function readGgufHeader(file: ByteSource): Promise<GgufHeader> {
  for (let n = Math.min(FIRST_SLICE, file.size); ; n = Math.min(n * 4, file.size)) {
    const bytes = new Uint8Array(await file.slice(0, n).arrayBuffer());
    try {
      return parse(bytes);
    } catch (e) {
      if (!(e instanceof NeedMore)) throw e;
      if (n >= file.size)
        throw new GgufFormatError('The file ends inside its GGUF header: it is cut short (an interrupted download?).');
    }
  }
}

function parse(bytes: Uint8Array): GgufHeader {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = new TextDecoder();
  let at = 0;
  const need = (n: number) => {
    if (at + n > bytes.byteLength) throw new NeedMore();
  };
  const u32 = () => (need(4), (at += 4), view.getUint32(at - 4, true));
  const u64 = () => (need(8), (at += 8), view.getBigUint64(at - 8, true));
  const str = () => {
    const len = Number(u64());
    need(len);
    at += len;
    return text.decode(bytes.subarray(at - len, at));
  };
  const scalar = (type: number): GgufValue => {
    switch (type) {
      case 0:
        return (need(1), view.getUint8(at++));
      case 1:
        return (need(1), view.getInt8(at++));
      case 2:
        return (need(2), (at += 2), view.getUint16(at - 2, true));
      case 3:
        return (need(2), (at += 2), view.getInt16(at - 2, true));
      case 4:
        return u32();
      case 5:
        return (need(4), (at += 4), view.getInt32(at - 4, true));
      case 6:
        return (need(4), (at += 4), view.getFloat32(at - 4, true));
      case 7:
        return (need(1), view.getUint8(at++) !== 0);
      case 8:
        return str();
      case 9: {
        const itemType = u32();
        const count = Number(u64());
        const items: GgufValue[] = [];
        for (let i = 0; i < count; i++) items.push(scalar(itemType));
        return items;
      }
      case 10:
        return u64();
      case 11:
        return (need(8), (at += 8), view.getBigInt64(at - 8, true));
      case 12:
        return (need(8), (at += 8), view.getFloat64(at - 8, true));
      default:
        throw new GgufFormatError(
          `Unknown GGUF value type ${type} at byte ${at}: the file is damaged or not a GGUF file.`,
        );
    }
  };

  need(4);
  if (text.decode(bytes.subarray(0, 4)) !== 'GGUF')
    throw new GgufFormatError('This is not a GGUF file (it does not start with "GGUF"). Pick a .gguf model file.');
  at = 4;
  const version = u32();
  if (version < 2 || version > 3)
    throw new GgufFormatError(`GGUF version ${version} is not supported (versions 2 and 3 are).`);
  const tensorCount = u64();
  const kvCount = Number(u64());
  const meta = new Map<string, GgufValue>();
  for (let i = 0; i < kvCount; i++) {
    const key = str();
    meta.set(key, scalar(u32()));
  }
  return { version, tensorCount, meta };
}

/** A string entry of the header, when it is one. */
export function metaString(h: GgufHeader, key: string): string | undefined {
  const v = h.meta.get(key);
  return typeof v === 'string' ? v : undefined;
}

/** The header key of the model's training context: `<arch>.context_length`, e.g. `qwen2.context_length`. */
export function trainedContextKey(h: GgufHeader): string | undefined {
  const arch = metaString(h, 'general.architecture');
  return arch ? `${arch}.context_length` : undefined;
}

/** The model's training context (`<arch>.context_length`), when the header has it. */
export function trainedContext(h: GgufHeader): number | undefined {
  const key = trainedContextKey(h);
  const v = key ? h.meta.get(key) : undefined;
  return typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : undefined;
}
