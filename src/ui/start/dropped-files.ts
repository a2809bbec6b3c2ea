/**
 * Files a person drops in (or picks) as text for the workspace: folders are walked, the one
 * folder everything sits in is dropped from the paths (dropping `my-app/` gives `src/a.js`,
 * not `my-app/src/a.js`), dependency and VCS folders are left out, binary files are skipped,
 * and the limits hold. The paths are still untrusted: the worker re-jails every one.
 */

/** One file read from the drop, under its path relative to what was dropped. */
export interface DroppedFile {
  readonly path: string;
  readonly text: string;
}

/** What could not be taken, and why, for the start screen to list. */
export interface DropSkip {
  readonly path: string;
  readonly reason: string;
}

export interface DropResult {
  readonly files: readonly DroppedFile[];
  readonly skipped: readonly DropSkip[];
}

export interface DropLimits {
  readonly maxFiles: number;
  readonly maxBytes: number;
}

/** Folders never copied in: installed dependencies, build output and version control. */
export const SKIPPED_DIRS: ReadonlySet<string> = new Set([
  'node_modules',
  '.git',
  'dist',
  'build',
  '.venv',
  '__pycache__',
]);

/** A file with a path and a way to read it: a File from the picker or a drop. */
export interface ReadableFile {
  readonly path: string;
  readonly size: number;
  read(): Promise<ArrayBuffer>;
}

/** Removes the single top folder all paths share (`app/a.js`, `app/b/c.js` → `a.js`, `b/c.js`). */
export function stripCommonRoot(paths: readonly string[]): string[] {
  const tops = new Set(paths.map((p) => (p.includes('/') ? p.slice(0, p.indexOf('/')) : null)));
  if (tops.size !== 1 || tops.has(null)) return [...paths];
  const top = [...tops][0]!;
  return paths.map((p) => p.slice(top.length + 1));
}

/** True when a NUL byte occurs in the first 8 KB: the same test the engine's viewer uses for binary files. */
export function looksBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, 8192);
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return true;
  return false;
}

/** Reads the files as text within the limits; everything left out is listed with its reason. */
export async function readDropped(input: readonly ReadableFile[], limits: DropLimits): Promise<DropResult> {
  const wanted = input.filter((f) => !f.path.split('/').some((part) => SKIPPED_DIRS.has(part)));
  const skipped: DropSkip[] = [];
  const leftOut = input.length - wanted.length;
  if (leftOut > 0)
    skipped.push({
      path: `${leftOut} file${leftOut === 1 ? '' : 's'}`,
      reason: `inside ${[...SKIPPED_DIRS].join(', ')} (dependencies, build output, version control)`,
    });
  const paths = stripCommonRoot(wanted.map((f) => f.path));
  const files: DroppedFile[] = [];
  let bytes = 0;
  const decoder = new TextDecoder();
  for (const [i, file] of wanted.entries()) {
    const path = paths[i]!;
    if (files.length >= limits.maxFiles) {
      skipped.push({ path, reason: `over the limit of ${limits.maxFiles} files` });
      continue;
    }
    if (bytes + file.size > limits.maxBytes) {
      skipped.push({ path, reason: `over the limit of ${Math.round(limits.maxBytes / 1024)} KB in total` });
      continue;
    }
    const data = new Uint8Array(await file.read());
    if (looksBinary(data)) {
      skipped.push({ path, reason: 'a binary file; the workspace takes text files' });
      continue;
    }
    bytes += data.length;
    files.push({ path, text: decoder.decode(data) });
  }
  return { files, skipped };
}

/** Files from a file picker (`webkitRelativePath` when a folder was picked). */
export function fromFileList(list: FileList | readonly File[]): ReadableFile[] {
  return Array.from(list, (f) => ({ path: f.webkitRelativePath || f.name, size: f.size, read: () => f.arrayBuffer() }));
}

/** Files from a drop, walking dropped folders. */
export async function fromDataTransfer(dt: DataTransfer): Promise<ReadableFile[]> {
  const entries = Array.from(dt.items)
    .map((item) => item.webkitGetAsEntry())
    .filter((e): e is FileSystemEntry => e !== null);
  if (entries.length === 0) return fromFileList(dt.files);
  const out: ReadableFile[] = [];
  for (const entry of entries) await walk(entry, out);
  return out;
}

async function walk(entry: FileSystemEntry, out: ReadableFile[]): Promise<void> {
  const path = entry.fullPath.replace(/^\/+/, '');
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
    out.push({ path, size: file.size, read: () => file.arrayBuffer() });
    return;
  }
  if (!entry.isDirectory || SKIPPED_DIRS.has(entry.name)) return;
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  // readEntries answers in batches; an empty batch means the end.
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) return;
    for (const child of batch) await walk(child, out);
  }
}
