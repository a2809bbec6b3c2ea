/**
 * An endpoint's own model list, for find_models: the OpenAI-compatible `GET {base}/models`
 * (`{"data": [{"id"}]}`) and Ollama's `GET /api/tags` (`{"models": [{"name", "size"}]}`) at the
 * endpoint's origin, both asked, merged by id. Each answer is bounded (ENDPOINT_LIST_BYTES, one
 * deadline); what could not be read is said in a note, never thrown.
 */
import type { ModelListing } from '../engine/models-listing.ts';
import { readCapped } from '../platform/read-capped.ts';

/** The most bytes read of one list. */
export const ENDPOINT_LIST_BYTES = 1024 * 1024;
/** The deadline for both lists together, in ms. */
export const ENDPOINT_LIST_MS = 5000;

/** What an endpoint listed, and what could not be read. */
export interface EndpointModels {
  readonly models: readonly ModelListing[];
  readonly notes: readonly string[];
}

/** The body of `url` as JSON, at most ENDPOINT_LIST_BYTES; throws with a message that says what went wrong. */
async function getJson(url: string, signal: AbortSignal): Promise<unknown> {
  const res = await fetch(url, { signal, redirect: 'error', headers: { accept: 'application/json' } });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const body = await readCapped(res, ENDPOINT_LIST_BYTES);
  if (body === null) throw new Error(`more than ${ENDPOINT_LIST_BYTES} bytes`);
  try {
    return JSON.parse(new TextDecoder().decode(body));
  } catch {
    throw new Error('not JSON');
  }
}

function entries(value: unknown, key: string): Record<string, unknown>[] {
  const list = (value as Record<string, unknown> | null)?.[key];
  if (!Array.isArray(list)) throw new Error(`no "${key}" list`);
  return list.filter((x): x is Record<string, unknown> => typeof x === 'object' && x !== null);
}

function listing(base: string, id: string, sizeBytes?: number): ModelListing {
  return {
    id: `openai:${base}#${id}`,
    engine: 'endpoint',
    label: id,
    ...(sizeBytes !== undefined && { sizeMB: Math.round(sizeBytes / 1024 / 1024) }),
    cached: true,
    why: `served by the endpoint ${base}`,
  };
}

/** The models the OpenAI-compatible endpoint at `base` (e.g. `http://127.0.0.1:11434/v1`) and, where it is Ollama, its tags list. */
export async function endpointModels(base: string): Promise<EndpointModels> {
  const trimmed = base.replace(/\/+$/, '');
  const signal = AbortSignal.timeout(ENDPOINT_LIST_MS);
  const [openai, ollama] = await Promise.allSettled([
    getJson(`${trimmed}/models`, signal).then((v) =>
      entries(v, 'data').flatMap((m) => (typeof m.id === 'string' ? [listing(trimmed, m.id)] : [])),
    ),
    getJson(`${new URL(trimmed).origin}/api/tags`, signal).then((v) =>
      entries(v, 'models').flatMap((m) =>
        typeof m.name === 'string' ? [listing(trimmed, m.name, typeof m.size === 'number' ? m.size : undefined)] : [],
      ),
    ),
  ]);
  const byId = new Map<string, ModelListing>();
  // Ollama's entries carry sizes: they win over the same id from /models.
  for (const got of [openai, ollama]) if (got.status === 'fulfilled') for (const m of got.value) byId.set(m.id, m);
  const notes: string[] = [];
  if (openai.status === 'rejected' && ollama.status === 'rejected') {
    const why = (r: PromiseRejectedResult) => (r.reason instanceof Error ? r.reason.message : String(r.reason));
    notes.push(
      `The endpoint ${trimmed} gave no model list (${trimmed}/models: ${why(openai)}; /api/tags: ${why(ollama)}); check that it runs.`,
    );
  }
  return { models: [...byId.values()], notes };
}
