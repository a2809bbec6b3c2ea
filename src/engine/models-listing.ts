/**
 * What find_models lists: one model this host can run, with the facts that decide whether to
 * pick it. The host builds the list (the engine knows no catalog): the CLI from the WebLLM and
 * GGUF catalogs and this machine's memory, and a configured endpoint's own list.
 */

export interface ModelListing {
  readonly id: string;
  /** `webllm` (WebGPU in a tab), `gguf` (llama.cpp), `endpoint` (an OpenAI-compatible server's own list). */
  readonly engine: 'webllm' | 'gguf' | 'endpoint';
  readonly label: string;
  readonly sizeMB?: number;
  readonly contextWindow?: number;
  /** Whether its weights are already on this machine; undefined: this host cannot tell. */
  readonly cached?: boolean;
  /** Whether it fits this device; undefined: this host cannot tell. */
  readonly fits?: boolean;
  /** Why it fits or not, in words. */
  readonly why?: string;
}

/** A host's model list, and what it could not find out (an endpoint that gave no list). */
export interface ModelsList {
  readonly models: readonly ModelListing[];
  readonly notes?: readonly string[];
}

/** The host's model list. Never throws. */
export type ModelsAccess = () => Promise<ModelsList>;
