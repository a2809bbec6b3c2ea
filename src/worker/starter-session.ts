/**
 * The console's session: a memory workspace seeded with a bundled template, and an engine
 * built by createEngine (the coding tools and the post-edit syntax check) over it. Used by
 * the worker and, unchanged, by the protocol tests.
 */
import { createEngine } from '../engine/create.ts';
import { MemoryWorkspace } from '../workspace/memory/memory-workspace.ts';
import { STARTER_TEMPLATE, seedTemplate, type Template } from '../workspace/templates/index.ts';
import type { EngineSession } from './engine-host.ts';

/** A fresh session on `template` (the starter by default). */
export async function createTemplateSession(template: Template = STARTER_TEMPLATE): Promise<EngineSession> {
  const workspace = new MemoryWorkspace();
  await seedTemplate(workspace, template);
  const engine = createEngine(workspace);
  return {
    engine,
    info: {
      workspaceKind: workspace.kind,
      template: { id: template.id, title: template.title, hash: template.hash, task: template.task },
    },
  };
}
