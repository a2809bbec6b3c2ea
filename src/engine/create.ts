/**
 * The one place that assembles a coding engine: the registry's tools and the post-edit syntax
 * check over a workspace. The CLI, the bench and the worker build their engines here, so each
 * runs the same pipeline the model meets.
 */
import { Engine } from './engine.ts';
import type { EngineSettings } from './settings.ts';
import { syntaxPostEdit } from './syntax/index.ts';
import { CODING_TOOLS } from './tools/index.ts';
import type { Workspace } from './workspace.ts';

/** A fresh engine session over `workspace` with the coding tool set, the syntax check, and `settings` over the defaults. */
export function createEngine(workspace: Workspace, settings?: Partial<EngineSettings>): Engine {
  return new Engine({ workspace, tools: CODING_TOOLS, postEdit: syntaxPostEdit, ...(settings ? { settings } : {}) });
}
