/** A run's files as a zip archive, under one folder (`root/`), made with fflate. */
import { strToU8, zipSync, type Zippable } from 'fflate';
import type { RunFiles } from './run-files.ts';

export function filesZip(files: RunFiles, root: string): Uint8Array<ArrayBuffer> {
  const tree: Zippable = {};
  for (const [path, text] of files.texts) tree[`${root}/${path}`] = strToU8(text);
  return zipSync(tree, { level: 6 });
}
