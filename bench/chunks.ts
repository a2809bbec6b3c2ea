/**
 * The chunk graph of a Vite build, read from the files themselves: index.html's entry script,
 * modulepreload and stylesheet links, and in every JS chunk its static imports, its dynamic
 * `import()`s and the workers it starts (`new Worker(new URL('/assets/…'))`). Sizes are raw
 * and gzipped (level 6, what a web server sends by default).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** `css`: a stylesheet a chunk injects when one of its dynamic imports loads (Vite's preload list). */
export type EdgeKind = 'static' | 'dynamic' | 'worker' | 'css';

export interface Chunk {
  /** The file name under assets/. */
  readonly file: string;
  readonly text: string;
  readonly bytes: number;
  readonly gzBytes: number;
  readonly edges: readonly { readonly kind: EdgeKind; readonly to: string }[];
}

export interface BuildGraph {
  /** Every .js and .css file under assets/, by file name (a chunk's edges name files the same way). */
  readonly chunks: ReadonlyMap<string, Chunk>;
  /** What index.html loads before anything lazy: the entry script, its modulepreloads and stylesheets. */
  readonly initial: readonly string[];
}

// Minified chunks quote with ", ' or `; a worker URL may carry a /* @vite-ignore */ comment.
const Q = '[`"\']';
const PATTERNS: readonly [EdgeKind, RegExp][] = [
  ['static', new RegExp(`(?:from|import)\\s*${Q}\\./([\\w.-]+\\.js)${Q}`, 'g')],
  ['dynamic', new RegExp(`import\\(\\s*${Q}\\./([\\w.-]+\\.js)${Q}\\s*\\)`, 'g')],
  ['worker', new RegExp(`new URL\\((?:\\s|/\\*[\\s\\S]*?\\*/)*${Q}/assets/([\\w.-]+\\.js)${Q}`, 'g')],
  ['css', new RegExp(`${Q}/?assets/([\\w.-]+\\.css)${Q}`, 'g')],
];

function edgesOf(text: string): Chunk['edges'] {
  return PATTERNS.flatMap(([kind, re]) => [...text.matchAll(re)].map((m) => ({ kind, to: m[1]! })));
}

/** The build's chunk graph; throws when index.html names no entry script (not a Vite app build). */
export async function readBuild(dir: string): Promise<BuildGraph> {
  const chunks = new Map<string, Chunk>();
  for (const file of await readdir(join(dir, 'assets'))) {
    if (!/\.(js|css)$/.test(file)) continue;
    const buf = await readFile(join(dir, 'assets', file));
    const text = buf.toString('utf8');
    chunks.set(file, {
      file,
      text,
      bytes: buf.length,
      gzBytes: gzipSync(buf).length,
      edges: file.endsWith('.js') ? edgesOf(text) : [],
    });
  }
  // A bundled project template holds source like `from "./strings.js"`: only real chunks are edges.
  for (const [file, c] of chunks) chunks.set(file, { ...c, edges: c.edges.filter((e) => chunks.has(e.to)) });
  const html = await readFile(join(dir, 'index.html'), 'utf8');
  const linked = (re: RegExp) => [...html.matchAll(re)].map((m) => m[1]!.replace(/^\/assets\//, ''));
  const entry = linked(/<script[^>]*type="module"[^>]*src="([^"]+)"/g);
  if (!entry.length) throw new Error('index.html of the build names no module script');
  const initial = [
    ...entry,
    ...linked(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g),
    ...linked(/<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g),
  ];
  // The entry's own static imports load with it, whether or not index.html preloads them.
  return { chunks, initial: [...new Set([...initial, ...closure(chunks, entry, ['static'])])] };
}

/** Every chunk reachable from `roots` along edges of the given kinds, roots included; never entering `avoid`. */
export function closure(
  chunks: ReadonlyMap<string, Chunk>,
  roots: readonly string[],
  kinds: readonly EdgeKind[],
  avoid?: string,
): string[] {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length) {
    const file = stack.pop()!;
    if (seen.has(file) || file === avoid) continue;
    seen.add(file);
    for (const e of chunks.get(file)?.edges ?? []) if (kinds.includes(e.kind)) stack.push(e.to);
  }
  return [...seen];
}

/**
 * The edges that load `file`: those from chunks the page can load before it (reachable from
 * the first load without passing through `file`). Edges back from what `file` loads itself are
 * left out: a lazy chunk may import shared code from the chunk that imported it.
 */
export function loadersOf(g: BuildGraph, file: string): { from: string; kind: EdgeKind }[] {
  const before = closure(g.chunks, g.initial, ['static', 'dynamic', 'worker'], file);
  return before.flatMap((from) =>
    (g.chunks.get(from)?.edges ?? []).filter((e) => e.to === file).map((e) => ({ from, kind: e.kind })),
  );
}

/** Raw and gzipped bytes of some chunks; a name the build does not have counts as missing. */
export function sizeOf(
  chunks: ReadonlyMap<string, Chunk>,
  files: readonly string[],
): { bytes: number; gzBytes: number; missing: string[] } {
  let bytes = 0;
  let gzBytes = 0;
  const missing: string[] = [];
  for (const f of files) {
    const c = chunks.get(f);
    if (!c) missing.push(f);
    else {
      bytes += c.bytes;
      gzBytes += c.gzBytes;
    }
  }
  return { bytes, gzBytes, missing };
}

/** `77.1 KB gz (190.2 KB)`, in kilobytes of 1,000 bytes as Vite prints them. */
export function kb(size: { bytes: number; gzBytes: number }): string {
  return `${(size.gzBytes / 1000).toFixed(1)} KB gz (${(size.bytes / 1000).toFixed(1)} KB)`;
}
