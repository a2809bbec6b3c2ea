/**
 * The one place that assembles a coding engine: the registry's tools and the post-edit syntax
 * check over a workspace. The CLI, the bench and the worker build their engines here, so each
 * runs the same pipeline the model meets.
 */
import { Engine } from './engine.ts';
import type { EngineSettings } from './settings.ts';
import { checkSyntax, createSyntaxPostEdit, syntaxPostEdit, type SyntaxChecker } from './syntax/index.ts';
import { createPythonCompileCheck } from './syntax/python-compile.ts';
import { withVerdictCache } from './syntax/verdict-cache.ts';
import { CODING_TOOLS, SPECIALIST_TOOLS } from './tools/index.ts';
import type { OutsideAccess } from './outside.ts';
import type { Workspace } from './workspace.ts';

export interface EngineOptions {
  /**
   * The post-edit hook's checker, for a workspace that can judge files better than the
   * in-process parsers (e.g. `node --check` in WebContainer); `checkSyntax` by default.
   */
  readonly syntaxCheck?: SyntaxChecker;
  /** What the host lets the specialist tools reach. */
  readonly outside?: OutsideAccess;
  /**
   * Register the specialist tools whatever `specialist_tools` says: for a person calling one by
   * name (slm call, slm batch). The model's tool set follows the setting.
   */
  readonly allTools?: boolean;
}

/** A fresh engine session over `workspace` with the coding tool set, the syntax check, and `settings` over the defaults. */
export function createEngine(
  workspace: Workspace,
  settings?: Partial<EngineSettings>,
  options: EngineOptions = {},
): Engine {
  // A workspace that runs Python has .py files judged by CPython's own compile().
  const check =
    options.syntaxCheck ??
    (workspace.pythonState ? createPythonCompileCheck(workspace, withVerdictCache(checkSyntax)) : undefined);
  const postEdit = check ? createSyntaxPostEdit({ check }) : syntaxPostEdit;
  const tools = settings?.specialist_tools || options.allTools ? [...CODING_TOOLS, ...SPECIALIST_TOOLS] : CODING_TOOLS;
  return new Engine({
    workspace,
    tools,
    postEdit,
    ...(settings ? { settings } : {}),
    ...(options.outside ? { outside: options.outside } : {}),
  });
}
