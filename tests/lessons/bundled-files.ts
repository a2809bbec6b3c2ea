/**
 * Every session the app bundles, read from disk as the app ships it: the lessons
 * (lessons/*.session.json) and the examples (examples/*.session.json).
 */
import { readFile } from 'node:fs/promises';
import { expect } from 'vitest';
import { examplePath, EXAMPLE_SCRIPTS, REGENERATE } from '../../scripts/make-examples.ts';
import { lessonPath, REGENERATE_LESSONS } from '../../scripts/make-lessons.ts';
import { LESSONS } from '../../src/session/lessons.ts';
import type { Session } from '../../src/session/record.ts';
import { parseSessionFile } from '../../src/session/share-codec.ts';

export interface BundledFile {
  /** `lessons/<id>.session.json` or `examples/<name>.session.json`. */
  readonly name: string;
  readonly path: string;
  /** The command that rewrites it. */
  readonly regenerate: string;
}

export const BUNDLED_FILES: readonly BundledFile[] = [
  ...LESSONS.map((l) => ({ name: `lessons/${l.id}.session.json`, path: lessonPath(l.id), regenerate: REGENERATE_LESSONS })),
  ...EXAMPLE_SCRIPTS.map((s) => ({ name: `examples/${s.name}.session.json`, path: examplePath(s.name), regenerate: REGENERATE })),
];

/** The session in `file`, checked as any session file is. */
export async function loadBundled(file: BundledFile): Promise<Session> {
  const text = await readFile(file.path, 'utf8').catch(() => null);
  if (text === null) expect.fail(`${file.name} is missing; write it with \`${file.regenerate}\``);
  const checked = await parseSessionFile(text);
  if (!checked.ok) expect.fail(`${file.name} does not read as a session: ${checked.text}`);
  return checked.session;
}
