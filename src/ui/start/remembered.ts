/**
 * The start screen's fields kept across reloads: the endpoint's URL and model, and a GGUF URL
 * of one's own. The API key is never stored. A storage that is missing, full or holding
 * something else is ignored: the fields then start empty.
 */

export interface Remembered {
  readonly endpoint?: { readonly baseUrl: string; readonly model: string };
  readonly ggufUrl?: string;
}

/** The part of Web Storage used here. */
export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

const KEY = 'slmcode:start-fields';

export function loadRemembered(store: KeyValueStore | null | undefined): Remembered {
  try {
    const v = JSON.parse(store?.getItem(KEY) ?? 'null') as unknown;
    if (!v || typeof v !== 'object') return {};
    const { endpoint, ggufUrl } = v as Record<string, unknown>;
    const ep = endpoint as Record<string, unknown> | undefined;
    return {
      ...(ep &&
        typeof ep.baseUrl === 'string' &&
        typeof ep.model === 'string' && { endpoint: { baseUrl: ep.baseUrl, model: ep.model } }),
      ...(typeof ggufUrl === 'string' && { ggufUrl }),
    };
  } catch {
    return {};
  }
}

export function saveRemembered(store: KeyValueStore | null | undefined, r: Remembered): void {
  try {
    store?.setItem(KEY, JSON.stringify(r));
  } catch {
    // full or refused: the fields are simply not kept
  }
}
