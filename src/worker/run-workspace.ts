/**
 * The workspace a run starts from: a bundled template, or files a person dropped in. Dropped
 * files are untrusted input: every path goes through the engine's own jail (the same rules a
 * model's path meets), refused paths are reported and left out, and the whole set is capped.
 * Either way the session is built by createTemplateSession, so runs and the console share one
 * way of making a workspace.
 */
import { resolvePath } from '../engine/jail.ts';
import type { EngineSettings } from '../engine/settings.ts';
import type { OutsideAccess } from '../engine/outside.ts';
import { MemoryWorkspace } from '../workspace/memory/memory-workspace.ts';
import { hashTemplateFiles, templateById, type Template } from '../workspace/templates/index.ts';
import type { EngineSession } from './engine-session.ts';
import type { PathCheck, RunInfo, SkippedPath, TaskChoice } from './protocol.ts';
import { DROP_LIMITS } from './run-options.ts';
import { createTemplateSession, type SessionBackend } from './starter-session.ts';

/** The id a run from dropped files records as its template. */
export const FILES_TEMPLATE_ID = 'files';

/** Runs each path through the jail as a write would; accepted paths come back normalized. */
export async function checkPaths(paths: readonly string[]): Promise<PathCheck[]> {
  // An empty workspace: dropped files are not there yet, so only the path's own rules apply.
  const probe = new MemoryWorkspace();
  const out: PathCheck[] = [];
  for (const path of paths) {
    const jailed = await resolvePath(probe, path, 'write');
    out.push(jailed.ok ? { path, stored: jailed.path } : { path, reason: jailed.text });
  }
  return out;
}

export interface RunWorkspace {
  readonly session: EngineSession;
  readonly task: string;
  readonly workspace: RunInfo['workspace'];
  readonly skipped: readonly SkippedPath[];
}

/**
 * The session a run starts on, in a fresh memory workspace or on `backend` (emptied by the
 * caller). Throws an Error the page shows for an unknown template or files over the limits.
 */
export async function createRunWorkspace(
  choice: TaskChoice,
  settings: Partial<EngineSettings>,
  backend?: SessionBackend,
  outside?: OutsideAccess,
): Promise<RunWorkspace> {
  if (choice.kind === 'template') {
    const template = templateById(choice.templateId);
    if (!template)
      throw new Error(`There is no bundled template "${choice.templateId}"; pick one of the listed tasks.`);
    return {
      session: await createTemplateSession(template, settings, backend, outside),
      task: template.task,
      workspace: { kind: 'template', id: template.id, title: template.title, hash: template.hash },
      skipped: [],
    };
  }
  const task = choice.task.trim();
  if (!task) throw new Error('Say what the agent should do with your files: the task is empty.');
  const { files, skipped } = await jailFiles(choice.files);
  if (Object.keys(files).length === 0)
    throw new Error(
      'None of the dropped files can go into the workspace; see why each was refused, or pick the starter task.',
    );
  const template: Template = {
    id: FILES_TEMPLATE_ID,
    title: 'Your files',
    description: 'Files dropped into the playground.',
    task,
    files,
    hash: await hashTemplateFiles(files),
  };
  return {
    session: await createTemplateSession(template, settings, backend, outside),
    task,
    workspace: { kind: 'files', fileCount: Object.keys(files).length, hash: template.hash },
    skipped,
  };
}

/** The dropped files the jail accepts, under their normalized paths, within DROP_LIMITS. */
async function jailFiles(
  dropped: Readonly<Record<string, string>>,
): Promise<{ files: Record<string, string>; skipped: SkippedPath[] }> {
  const paths = Object.keys(dropped);
  if (paths.length > DROP_LIMITS.maxFiles) {
    throw new Error(
      `${paths.length} files were dropped; the playground takes at most ${DROP_LIMITS.maxFiles}. Drop a smaller folder (leave out node_modules and build output).`,
    );
  }
  const bytes = paths.reduce((n, p) => n + dropped[p]!.length, 0);
  if (bytes > DROP_LIMITS.maxBytes) {
    throw new Error(
      `The dropped files hold about ${Math.round(bytes / 1024)} KB of text; the playground takes at most ${DROP_LIMITS.maxBytes / 1024} KB. Drop fewer files.`,
    );
  }
  const files: Record<string, string> = {};
  const skipped: SkippedPath[] = [];
  for (const check of await checkPaths(paths)) {
    if (check.stored === undefined || check.stored === '') {
      skipped.push({ path: check.path, reason: check.reason ?? 'the path names the project root itself, not a file' });
    } else if (check.stored in files) {
      skipped.push({
        path: check.path,
        reason: `it is the same file as another dropped path (${check.stored}); only the first was kept`,
      });
    } else {
      files[check.stored] = dropped[check.path]!;
    }
  }
  return { files, skipped };
}
