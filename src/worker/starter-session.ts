/**
 * The console's session, and every run's: a memory workspace seeded with a bundled template
 * (or with a person's own files, shaped as a template), and an engine built by createEngine
 * (the coding tools and the post-edit syntax check) over it. Used by the worker and,
 * unchanged, by the protocol tests.
 */
import { createEngine } from '../engine/create.ts';
import type { EngineSettings } from '../engine/settings.ts';
import { MemoryWorkspace } from '../workspace/memory/memory-workspace.ts';
import { sandboxRunner } from '../workspace/memory/js-sandbox.ts';
import { STARTER_TEMPLATE, seedTemplate, type Template } from '../workspace/templates/index.ts';
import type { EngineSession } from './engine-session.ts';

/** A fresh session on `template` (the starter by default), with `settings` over the engine defaults. */
export async function createTemplateSession(template: Template = STARTER_TEMPLATE, settings?: Partial<EngineSettings>): Promise<EngineSession> {
  const workspace = new MemoryWorkspace(undefined, undefined, sandboxRunner());
  await seedTemplate(workspace, template);
  const engine = createEngine(workspace, settings);
  return {
    engine,
    info: {
      workspaceKind: workspace.kind,
      template: { id: template.id, title: template.title, hash: template.hash, task: template.task },
    },
  };
}
