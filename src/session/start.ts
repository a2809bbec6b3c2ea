/**
 * The starting workspace of a session, both ways: described when a run is recorded (a bundled
 * template by id + content hash when the files are exactly one, else the files themselves),
 * and seeded into a fresh workspace when a session is replayed.
 */
import { decodeText, encodeText, looksBinary } from '../engine/text.ts';
import { baseName, SKIP_DIRS } from '../engine/walk.ts';
import { notReadText } from '../engine/file-size.ts';
import type { Workspace } from '../engine/workspace.ts';
import { hashTemplateFiles, TEMPLATES, templateById } from '../workspace/templates/index.ts';
import { seedTemplateRepo } from '../workspace/git-seed.ts';
import { SHORT_HASH_HEX } from './hash.ts';
import type { WorkspaceRef } from './record.ts';
import { readTree } from './tree.ts';
import { recordedPathProblem } from './validate.ts';

export interface StartDescription {
  readonly ref: WorkspaceRef;
  /**
   * Entries a record cannot carry — binary files, symlinks, empty directories, and paths a
   * session from outside would be refused for (harness state under .slmcode/) — each with
   * its reason; a replay starts without them.
   */
  readonly unrecorded: readonly string[];
}

/** The short form of a template's `sha256:…` hash that records carry. */
export function shortTemplateHash(fullHash: string): string {
  return fullHash.replace(/^sha256:/, '').slice(0, SHORT_HASH_HEX);
}

/** Describes the files in `ws` now, before a run changes them. */
export async function describeStart(ws: Workspace): Promise<StartDescription> {
  const files: Record<string, string> = {};
  const unrecorded: string[] = [];
  const tree = await readTree(ws);
  for (const e of tree) {
    if (e.type === 'dir') {
      if (SKIP_DIRS.has(baseName(e.path))) unrecorded.push(`${e.path}/ (skipped, as the search tools skip it)`);
      else if (!tree.some((other) => other.path.startsWith(`${e.path}/`)))
        unrecorded.push(`${e.path}/ (an empty directory)`);
    } else if (e.type === 'symlink') unrecorded.push(`${e.path} (a symlink)`);
    else if (e.tooLarge !== undefined) unrecorded.push(`${notReadText(e.path, e.tooLarge)} (not recorded)`);
    else if (looksBinary(e.bytes!)) unrecorded.push(`${e.path} (a binary file)`);
    else if (await recordedPathProblem(e.path))
      unrecorded.push(`${e.path} (a path the workspace refuses to write, e.g. harness state under .slmcode/)`);
    else files[e.path] = decodeText(e.bytes!);
  }
  const hash = await hashTemplateFiles(files);
  const template = TEMPLATES.find((t) => t.hash === hash);
  const ref: WorkspaceRef = template ? { template: { id: template.id, hash: shortTemplateHash(hash) } } : { files };
  return { ref, unrecorded };
}

export type SeedOutcome = { readonly ok: true } | { readonly ok: false; readonly text: string };

/**
 * Writes the starting files of `ref` into a fresh, empty workspace. A template this build does
 * not bundle, or bundles with other content, is an outcome with the reason: the session can
 * only be reproduced from the files it started with.
 */
export async function seedStart(ws: Workspace, ref: WorkspaceRef): Promise<SeedOutcome> {
  if ('files' in ref) {
    for (const [path, text] of Object.entries(ref.files)) await ws.writeFile(path, encodeText(text));
    return { ok: true };
  }
  const { id, hash } = ref.template;
  const template = templateById(id);
  if (!template) {
    return {
      ok: false,
      text: `the session starts from the template "${id}", which this build does not have (it has: ${listTemplates()}); open the session in the version that recorded it`,
    };
  }
  const have = shortTemplateHash(template.hash);
  if (have !== hash) {
    return {
      ok: false,
      text: `the session starts from the template "${id}" with content hash ${hash}, but this build's "${id}" hashes to ${have}: the template's files changed since the session was recorded`,
    };
  }
  await seedTemplateRepo(ws, template);
  return { ok: true };
}

function listTemplates(): string {
  return TEMPLATES.map((t) => t.id).join(', ');
}
