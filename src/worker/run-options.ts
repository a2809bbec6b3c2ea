/**
 * What the start screen offers before anything else is loaded: the bundled tasks, the recorded
 * runs, the model catalogs, the run defaults and the limits on dropped files. Kept apart from
 * the run host, so the engine worker's first chunk can answer with it while the engine loads.
 */
import { CATALOG, DEFAULT_MODEL_ID } from '../agent/models/catalog.ts';
import { DEFAULT_GGUF_ID, GGUF_CATALOG } from '../agent/models/gguf-catalog.ts';
import { RECORDED_RUNS } from '../agent/scripts/starter-run.ts';
import { TEMPLATES } from '../workspace/templates/index.ts';
import type { RunOptions } from './protocol.ts';
import { RUN_DEFAULTS } from './run-defaults.ts';

/** Limits on dropped files, so a dropped home directory cannot exhaust the tab. */
export const DROP_LIMITS = Object.freeze({ maxFiles: 500, maxBytes: 4 * 1024 * 1024 });

/** The choices the start screen offers. */
export function runOptions(): RunOptions {
  return {
    templates: TEMPLATES.map((t) => ({
      id: t.id,
      title: t.title,
      description: t.description,
      task: t.task,
      fileCount: Object.keys(t.files).length,
      hash: t.hash,
    })),
    recorded: RECORDED_RUNS.map((r) => ({
      id: r.id,
      title: r.title,
      description: r.description,
      templateId: r.templateId,
      steps: r.outputs.length,
    })),
    catalog: CATALOG,
    defaultModelId: DEFAULT_MODEL_ID,
    ggufCatalog: GGUF_CATALOG,
    defaultGgufId: DEFAULT_GGUF_ID,
    defaults: RUN_DEFAULTS,
    dropLimits: DROP_LIMITS,
  };
}
