/**
 * A bundled starting workspace: an id, a few lines of description, and its files as text.
 * Templates are generated JSON (scripts/build-templates.ts), so the same import works in a
 * Vite bundle, in a browser worker and in Node, and a session can name its starting point by
 * id + content hash instead of carrying every file.
 */
import { encodeText } from '../../engine/text.ts';
import type { Workspace } from '../../engine/workspace.ts';

export interface Template {
  /** Stable id recorded in sessions ("starter"). */
  readonly id: string;
  readonly title: string;
  readonly description: string;
  /** A task a person can hand to the agent for this template. */
  readonly task: string;
  /** POSIX path relative to the workspace root → UTF-8 text, sorted by path. */
  readonly files: Readonly<Record<string, string>>;
  /** `sha256:` + hex digest of the files (see `hashTemplateFiles`). */
  readonly hash: string;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/**
 * The content hash of a file set: SHA-256 over the JSON of its `[path, text]` pairs sorted by
 * path. Metadata (title, task) is left out on purpose: rewording a description must not make
 * recorded sessions look as if they started from different files.
 */
export async function hashTemplateFiles(files: Readonly<Record<string, string>>): Promise<string> {
  const pairs = Object.keys(files)
    .sort()
    .map((p) => [p, files[p]]);
  // crypto.subtle exists in Node 20 and in every secure browser context (localhost included).
  const digest = await crypto.subtle.digest('SHA-256', encodeText(JSON.stringify(pairs)) as Uint8Array<ArrayBuffer>);
  let hex = '';
  for (const b of new Uint8Array(digest)) hex += HEX[b];
  return `sha256:${hex}`;
}

/**
 * Checks the shape of a parsed template JSON and returns it typed. Throws with the offending
 * field, because a malformed bundled template is a build error, not user input.
 */
export function asTemplate(json: unknown): Template {
  const t = json as Partial<Record<keyof Template, unknown>>;
  for (const key of ['id', 'title', 'description', 'task', 'hash'] as const) {
    if (typeof t?.[key] !== 'string')
      throw new TypeError(`template: field ${key} must be a string, got ${JSON.stringify(t?.[key])}`);
  }
  if (typeof t.files !== 'object' || t.files === null)
    throw new TypeError(`template ${String(t.id)}: files must be an object`);
  for (const [path, text] of Object.entries(t.files)) {
    if (typeof text !== 'string') throw new TypeError(`template ${String(t.id)}: file ${path} must be text`);
  }
  return t as Template;
}

/**
 * Writes every file of `template` into `ws` (parent directories are created by the
 * workspace). Files already there are overwritten and nothing else is removed: seed a fresh
 * workspace when the result must be exactly the template.
 */
export async function seedTemplate(ws: Pick<Workspace, 'writeFile'>, template: Template): Promise<void> {
  for (const [path, text] of Object.entries(template.files)) {
    await ws.writeFile(path, encodeText(text));
  }
}
