/**
 * What the start screen shows of a GGUF model of one's own (a URL or a file picked from disk)
 * before anything is downloaded: its header's name, architecture and trained context
 * (`<arch>.context_length`), and — where the header gives the attention's shape — the KV cache's
 * bytes per token, so its window can be sized like a catalog model's. Only the header is read: a
 * file by `File.slice`, a URL by HTTP Range requests (gguf-remote.ts).
 */
import { kvBytesPerToken } from './architectures.ts';
import { BUFFERS_MB } from './gguf-catalog.ts';
import {
  GgufFormatError,
  metaString,
  readGgufHeader,
  trainedContext,
  trainedContextKey,
  type GgufHeader,
} from './gguf-header.ts';
import { remoteGguf } from './gguf-remote.ts';
import type { GgufSource } from './worker-protocol.ts';

/** A GGUF's facts, read from its header. */
export interface GgufFacts {
  /** `general.name`, when the header has one. */
  readonly name?: string;
  /** `general.architecture`, e.g. `qwen2`. */
  readonly architecture?: string;
  /** `general.size_label`, e.g. `0.5B`, when the header has one. */
  readonly params?: string;
  /** The context it was trained on, and the key it was read from. */
  readonly trained?: { readonly tokens: number; readonly key: string };
  /** An f16 KV cache's bytes per token, from the header's layers, KV heads and head size. */
  readonly kvBytesPerToken?: number;
  /** The file's size in bytes, when known (a server may not say). */
  readonly bytes?: number;
  /** Memory apart from the KV cache: the file and llama.cpp's compute buffers (MiB), when the size is known. */
  readonly baseMB?: number;
}

/** The facts of a header read from a file of `bytes` bytes (undefined when the size is unknown). */
export function ggufFacts(h: GgufHeader, bytes: number | undefined): GgufFacts {
  const name = metaString(h, 'general.name');
  const architecture = metaString(h, 'general.architecture');
  const params = metaString(h, 'general.size_label');
  const tokens = trainedContext(h);
  const key = trainedContextKey(h);
  const kv = architecture ? kvPerToken(h, architecture) : undefined;
  return {
    ...(name && { name }),
    ...(architecture && { architecture }),
    ...(params && { params }),
    ...(tokens !== undefined && key && { trained: { tokens, key } }),
    ...(kv !== undefined && { kvBytesPerToken: kv }),
    ...(bytes !== undefined && { bytes, baseMB: bytes / 2 ** 20 + BUFFERS_MB }),
  };
}

function num(h: GgufHeader, key: string): number | undefined {
  const v = h.meta.get(key);
  return typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : undefined;
}

/**
 * An f16 cache's bytes per token: layers × KV heads × head size, a key and a value each. The
 * head size is `attention.key_length` where the header gives it, else the embedding over the
 * heads. A per-layer KV head count (an array) is averaged over the layers.
 */
function kvPerToken(h: GgufHeader, arch: string): number | undefined {
  const layers = num(h, `${arch}.block_count`);
  const heads = num(h, `${arch}.attention.head_count`);
  const perLayer = h.meta.get(`${arch}.attention.head_count_kv`);
  const kvHeads = Array.isArray(perLayer)
    ? perLayer.reduce((a: number, x) => a + Number(x), 0) / Math.max(1, perLayer.length)
    : (num(h, `${arch}.attention.head_count_kv`) ?? heads);
  const embedding = num(h, `${arch}.embedding_length`);
  const headDim = num(h, `${arch}.attention.key_length`) ?? (embedding && heads ? embedding / heads : undefined);
  if (!layers || !kvHeads || !headDim) return undefined;
  return kvBytesPerToken({ layers, kvHeads, headDim, trainedContext: 0 }, 2);
}

/** How long the header of a URL may take to arrive before the screen gives up on it. */
const URL_TIMEOUT_MS = 20_000;

/**
 * Reads the facts of a GGUF: a file in place, a URL by Range requests (about a megabyte). Throws
 * an Error whose message says what went wrong and that the window field applies instead.
 */
export async function readGgufFacts(source: GgufSource, fetchFn?: typeof fetch): Promise<GgufFacts> {
  if ('file' in source) {
    try {
      return ggufFacts(await readGgufHeader(source.file), source.file.size);
    } catch (e) {
      throw new Error(`${source.name}: ${reason(e)}`, { cause: e });
    }
  }
  let remote;
  try {
    remote = await remoteGguf(source.url, {
      ...(fetchFn && { fetch: fetchFn }),
      signal: AbortSignal.timeout(URL_TIMEOUT_MS),
    });
  } catch (e) {
    throw new Error(urlProblem(source.url, e), { cause: e });
  }
  try {
    const header = await readGgufHeader(remote);
    return ggufFacts(header, remote.size === Number.MAX_SAFE_INTEGER ? undefined : remote.size);
  } catch (e) {
    throw new Error(`${source.url}: ${reason(e)}`, { cause: e });
  }
}

function reason(e: unknown): string {
  return e instanceof GgufFormatError ? e.message : e instanceof Error ? e.message : String(e);
}

/** Why a URL's header could not be read, in words: a refused range, no answer, or the browser's block. */
function urlProblem(url: string, e: unknown): string {
  const said = reason(e);
  if (/answered 416/.test(said))
    return `${url} refused the byte range asked for (HTTP 416), so its header cannot be read before the download: ${said}.`;
  if (/answered \d+/.test(said)) return `${said}: its header could not be read.`;
  if (e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError'))
    return `${url} did not send its header within ${URL_TIMEOUT_MS / 1000} s.`;
  return `${url} could not be reached from this page (${said}): the server may be down, or may not allow this page's origin (CORS) or its Range header.`;
}
