/**
 * The console's session, and every run's: a workspace seeded with a bundled template (or with
 * a person's own files, shaped as a template), and an engine built by createEngine (the coding
 * tools and the post-edit syntax check) over it. The workspace is a fresh memory workspace
 * unless the caller hands another (the WebContainer the page attached). Used by the worker
 * and, unchanged, by the protocol tests.
 */
import { createEngine } from '../engine/create.ts';
import type { EngineSettings } from '../engine/settings.ts';
import type { OutsideAccess } from '../engine/outside.ts';
import type { SyntaxChecker } from '../engine/syntax/index.ts';
import type { Workspace } from '../engine/workspace.ts';
import { MemoryWorkspace } from '../workspace/memory/memory-workspace.ts';
import { sandboxRunner } from '../workspace/memory/js-sandbox.ts';
import { STARTER_TEMPLATE, seedTemplate, templateById, type Template } from '../workspace/templates/index.ts';
import { seedTemplateRepo } from '../workspace/git-seed.ts';
import type { EngineSession } from './engine-session.ts';

/** A workspace other than a fresh memory one: empty, ready to be seeded, and the checker that suits it. */
export interface SessionBackend {
  readonly workspace: Workspace;
  /** The post-edit syntax check's checker (e.g. `node --check` where Node runs); the in-process one by default. */
  readonly syntaxCheck?: SyntaxChecker;
}

/**
 * A fresh session on `template` (the starter by default), with `settings` over the engine
 * defaults, on `backend` (memory by default), its specialist tools reaching what `outside` gives.
 */
export async function createTemplateSession(
  template: Template = STARTER_TEMPLATE,
  settings?: Partial<EngineSettings>,
  backend?: SessionBackend,
  outside?: OutsideAccess,
): Promise<EngineSession> {
  const workspace = backend?.workspace ?? new MemoryWorkspace(undefined, undefined, sandboxRunner());
  // A bundled template starts as a git repository (git_diff shows the agent's changes); a person's own files do not.
  if (templateById(template.id)?.hash === template.hash) await seedTemplateRepo(workspace, template);
  else await seedTemplate(workspace, template);
  const engine = createEngine(workspace, settings, {
    ...(backend?.syntaxCheck && { syntaxCheck: backend.syntaxCheck }),
    ...(outside && { outside }),
  });
  return {
    engine,
    info: {
      workspaceKind: workspace.kind,
      template: { id: template.id, title: template.title, hash: template.hash, task: template.task },
    },
  };
}
