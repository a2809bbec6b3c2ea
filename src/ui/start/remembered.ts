/**
 * The start screen's choices kept across reloads: which kind of model, the WebLLM and GGUF
 * catalog picks, the endpoint's URL and model, a GGUF URL of one's own, the step limit, the
 * temperature and the tool set, and named endpoint presets. The API key is never stored. A storage that is
 * missing, full or holding something else is ignored, field by field: a field that does not
 * read back as what it should be starts from its default.
 */

/** One named endpoint (the key is never part of it). */
export interface EndpointPreset {
  readonly name: string;
  readonly baseUrl: string;
  readonly model: string;
  readonly toolsApi: boolean;
}

export interface Remembered {
  readonly modelKind?: 'scripted' | 'openai' | 'webllm' | 'gguf';
  readonly endpoint?: { readonly baseUrl: string; readonly model: string; readonly toolsApi?: boolean };
  readonly webllmId?: string;
  readonly ggufCatalogId?: string;
  /** Where the GGUF file came from; a file on disk cannot be kept, so only these two. */
  readonly ggufFrom?: 'catalog' | 'url';
  readonly ggufUrl?: string;
  readonly maxSteps?: number;
  readonly temperature?: number;
  readonly toolSet?: 'full' | 'small';
  readonly presets?: readonly EndpointPreset[];
}

/** The part of Web Storage used here. */
export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

const KEY = 'slmcode:start-fields';
/** At most this many presets are kept (the oldest goes first). */
export const MAX_PRESETS = 12;
const MODEL_KINDS = new Set(['scripted', 'openai', 'webllm', 'gguf']);

const str = (v: unknown, max = 2048): v is string => typeof v === 'string' && v.length <= max;
const num = (v: unknown, min: number, max: number): v is number =>
  typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max;

function preset(v: unknown): EndpointPreset | null {
  if (!v || typeof v !== 'object') return null;
  const p = v as Record<string, unknown>;
  if (!str(p.name, 80) || !p.name.trim() || !str(p.baseUrl) || !str(p.model, 200)) return null;
  return { name: p.name, baseUrl: p.baseUrl, model: p.model, toolsApi: p.toolsApi === true };
}

export function loadRemembered(store: KeyValueStore | null | undefined): Remembered {
  let v: unknown;
  try {
    v = JSON.parse(store?.getItem(KEY) ?? 'null');
  } catch {
    return {};
  }
  if (!v || typeof v !== 'object') return {};
  const r = v as Record<string, unknown>;
  const ep = r.endpoint as Record<string, unknown> | undefined;
  const presets = Array.isArray(r.presets)
    ? r.presets
        .slice(0, MAX_PRESETS)
        .map(preset)
        .filter((p): p is EndpointPreset => p !== null)
    : [];
  return {
    ...(str(r.modelKind) && MODEL_KINDS.has(r.modelKind) && { modelKind: r.modelKind as Remembered['modelKind'] }),
    ...(ep &&
      str(ep.baseUrl) &&
      str(ep.model, 200) && {
        endpoint: { baseUrl: ep.baseUrl, model: ep.model, toolsApi: ep.toolsApi === true },
      }),
    ...(str(r.webllmId, 200) && { webllmId: r.webllmId }),
    ...(str(r.ggufCatalogId, 200) && { ggufCatalogId: r.ggufCatalogId }),
    ...((r.ggufFrom === 'catalog' || r.ggufFrom === 'url') && { ggufFrom: r.ggufFrom }),
    ...(str(r.ggufUrl) && { ggufUrl: r.ggufUrl }),
    ...(num(r.maxSteps, 1, 200) && Number.isInteger(r.maxSteps) && { maxSteps: r.maxSteps }),
    ...(num(r.temperature, 0, 2) && { temperature: r.temperature }),
    ...((r.toolSet === 'full' || r.toolSet === 'small') && { toolSet: r.toolSet }),
    ...(presets.length && { presets }),
  };
}

export function saveRemembered(store: KeyValueStore | null | undefined, r: Remembered): void {
  try {
    store?.setItem(KEY, JSON.stringify(r));
  } catch {
    // full or refused: the fields are simply not kept
  }
}

/** `presets` with `p` saved under its name (replacing one of the same name), newest last, at most MAX_PRESETS. */
export function withPreset(presets: readonly EndpointPreset[], p: EndpointPreset): EndpointPreset[] {
  return [...presets.filter((q) => q.name !== p.name), p].slice(-MAX_PRESETS);
}
