/**
 * Bundle sizes of the production build: what the first page load needs (index.html's entry
 * script, modulepreloads and stylesheets), beside the whole app as if everything were eager
 * (every JS and CSS chunk the page can ever reach, workers and lazy chunks included); then the
 * engine worker's first chunk and what it imports later, the model workers, the WebLLM and wllama (llama.cpp) chunks only those
 * workers import, CodeMirror's lazy chunk and the wasm files; and scans proving the page's first
 * load holds no WebLLM and no wllama code, by a marker string only each library contains.
 */
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { appBuild } from './build.ts';
import { closure, kb, loadersOf, readBuild, sizeOf, type BuildGraph } from './chunks.ts';
import type { BenchRow, BenchSectionDef } from './table.ts';

const MAIN_GZ_KB = 150;
/** The engine worker's first chunk (issue 16): what must load before the start screen's task choices. */
const ENGINE_FIRST_GZ_KB = 250;
/**
 * An error name defined in @mlc-ai/web-llm's lib/index.js (`this.name = "…"` survives
 * minification) that no code of ours mentions; the scan first checks the library still has it.
 */
const WEBLLM_MARKER = 'PrefillChunkSizeSmallerThanImageError';
/** An error message in @wllama/wllama's esm/index.js that survives minification and no code of ours says. */
const WLLAMA_MARKER = '"default" is missing from pathConfig';
/** The Emscripten module's factory in pyodide.asm.mjs, which no code of ours names. */
const PYODIDE_MARKER = '_createPyodideModule';
/** llama.cpp's wasm, as Vite names the asset (`wllama-HASH.wasm`). */
const isLlamaWasm = (f: string) => /^wllama-[\w-]+\.wasm$/.test(f);

const byPrefix = (g: BuildGraph, prefix: string): string[] =>
  [...g.chunks.keys()].filter((f) => f.startsWith(prefix) && f.endsWith('.js'));

/**
 * A part of the app loaded later: its chunk(s) and their static imports, less what is loaded
 * already when it loads (a dynamic import shares the importer's modules; a worker shares
 * nothing with the page). The baseline column says what loads it.
 */
function partRow(g: BuildGraph, figure: string, roots: readonly string[]): BenchRow {
  if (!roots.length) return { figure, ours: 'not in this build', baseline: '' };
  const loaders = loadersOf(g, roots[0]!);
  const loaded = new Set(
    closure(
      g.chunks,
      loaders.filter((l) => l.kind === 'dynamic').map((l) => l.from),
      ['static'],
    ),
  );
  const own = closure(g.chunks, roots, ['static']).filter((f) => !loaded.has(f));
  const how = loaders.length
    ? loaders
        .map(
          (l) =>
            `${l.kind === 'worker' ? 'a worker started' : `${l.kind} import`} from ${l.from.replace(/-[\w-]{8}\.js$/, '')}`,
        )
        .join(', ')
    : 'nothing loads it';
  return {
    figure: `${figure} (${own.length} file${own.length === 1 ? '' : 's'})`,
    ours: kb(sizeOf(g.chunks, own)),
    baseline: how,
  };
}

/**
 * The engine worker as two rows: its first chunk (the worker's script and its static imports,
 * all loaded before it answers anything) held to its target, and the chunks it imports later
 * (the engine host and the memory workspace at once, the shell's parser, git and the syntax
 * checkers on first use), the largest named.
 */
function engineWorkerRows(g: BuildGraph, roots: readonly string[]): BenchRow[] {
  const target = (met: boolean | null) => ({ text: `≤ ${ENGINE_FIRST_GZ_KB} KB gz`, met });
  if (!roots.length)
    return [{ figure: 'engine worker: first chunk', ours: 'not in this build', baseline: '', target: target(null) }];
  const first = closure(g.chunks, roots, ['static']);
  const all = closure(g.chunks, roots, ['static', 'dynamic']);
  const later = all.filter((f) => !first.includes(f));
  const firstSize = sizeOf(g.chunks, first);
  const largest = later
    .map((f) => g.chunks.get(f)!)
    .sort((a, b) => b.gzBytes - a.gzBytes)
    .slice(0, 4)
    .map((c) => `${c.file.replace(/-[\w-]{8}\.js$/, '')} ${(c.gzBytes / 1000).toFixed(0)}`);
  return [
    {
      figure: `engine worker: first chunk (${first.length} file${first.length === 1 ? '' : 's'})`,
      ours: kb(firstSize),
      baseline: `${kb(sizeOf(g.chunks, all))} with all it imports later`,
      target: target(firstSize.gzBytes <= ENGINE_FIRST_GZ_KB * 1000),
    },
    {
      figure: `engine worker: imported later (${later.length} files)`,
      ours: kb(sizeOf(g.chunks, later)),
      baseline: `largest, KB gz: ${largest.join(', ')}`,
    },
  ];
}

async function wasmRow(
  dir: string,
  figure: string,
  pick: (file: string) => boolean,
  baseline: string,
): Promise<BenchRow> {
  const files = (await readdir(join(dir, 'assets'))).filter((f) => f.endsWith('.wasm') && pick(f));
  let bytes = 0;
  let gzBytes = 0;
  for (const f of files) {
    const buf = await readFile(join(dir, 'assets', f));
    bytes += buf.length;
    gzBytes += gzipSync(buf).length;
  }
  return {
    figure: `${figure} (${files.length} file${files.length === 1 ? '' : 's'})`,
    ours: kb({ bytes, gzBytes }),
    baseline,
  };
}

/** Pyodide's files as the build holds them, all fetched on the first `python3` (the loader and module come as chunks of their text). */
async function pyodideRow(dir: string, g: BuildGraph): Promise<BenchRow> {
  const files = (await readdir(join(dir, 'assets'))).filter((f) =>
    /^(?:pyodide\.asm-[\w-]+\.wasm|python_stdlib-[\w-]+\.zip|pyodide-lock-[\w-]+\.json)$/.test(f),
  );
  let bytes = 0;
  let gzBytes = 0;
  for (const f of files) {
    const buf = await readFile(join(dir, 'assets', f));
    bytes += buf.length;
    gzBytes += gzipSync(buf).length;
  }
  const chunks = [...new Set([...byPrefix(g, 'pyodide-'), ...holding(g, PYODIDE_MARKER)])];
  const text = sizeOf(g.chunks, chunks);
  return {
    figure: `Pyodide: wasm, standard library, lock file + loader chunks (${files.length} + ${chunks.length} files)`,
    ours: kb({ bytes: bytes + text.bytes, gzBytes: gzBytes + text.gzBytes }),
    baseline: 'fetched by the engine worker on the first python3',
  };
}

/** The chunks holding a library's marker string. */
const holding = (g: BuildGraph, marker: string): string[] =>
  [...g.chunks.values()].filter((c) => c.file.endsWith('.js') && c.text.includes(marker)).map((c) => c.file);

/** The ✓/✗ row: no chunk of the first load contains the library's marker, while its own chunk does. */
async function noLibraryRow(g: BuildGraph, name: string, pkg: string, marker: string): Promise<BenchRow> {
  const figure = `main bundle holds no ${name} code`;
  const lib = await readFile(createRequire(import.meta.url).resolve(pkg), 'utf8');
  if (!lib.includes(marker)) {
    return {
      figure,
      ours: `marker ${marker} is gone from ${pkg}: pick another`,
      baseline: '',
      target: { text: 'no marker in the first load', met: null },
    };
  }
  const own = holding(g, marker);
  if (!own.length)
    return {
      figure,
      ours: `no chunk holds ${marker}`,
      baseline: '',
      target: { text: 'no marker in the first load', met: null },
    };
  const leaked = g.initial.filter((f) => g.chunks.get(f)?.text.includes(marker));
  return {
    figure,
    ours: leaked.length ? `✗ in ${leaked.join(', ')}` : `✓ (${g.initial.length} files scanned)`,
    baseline: `${marker} is in ${own.join(', ')}`,
    target: { text: 'no marker in the first load', met: leaked.length === 0 },
  };
}

/** The section; registered in bench/main.ts. Shares its build with the browser section. */
export function bundleSection(): BenchSectionDef {
  const title = 'bundle sizes of the production build (vite build)';
  return {
    title,
    async run() {
      const build = await appBuild();
      const g = await readBuild(build.dir);
      const main = sizeOf(g.chunks, g.initial);
      // Everything the page can ever load: the first load, and all it imports, starts or injects later.
      const reachable = closure(g.chunks, g.initial, ['static', 'dynamic', 'worker', 'css']);
      const all = sizeOf(g.chunks, reachable);
      const webllm = holding(g, WEBLLM_MARKER);
      const engineWorker = byPrefix(g, 'engine.worker-');
      const modelWorker = byPrefix(g, 'model.worker-');
      const ggufWorker = byPrefix(g, 'gguf.worker-');
      const codemirror = byPrefix(g, 'codemirror-');
      const mainOk = main.missing.length === 0 && main.gzBytes <= MAIN_GZ_KB * 1000;
      const rows: BenchRow[] = [
        {
          figure: `first load: JS + CSS in index.html (${g.initial.length} files)`,
          ours: main.missing.length ? `missing: ${main.missing.join(', ')}` : kb(main),
          baseline: `${kb(all)}, all ${reachable.length} eager → ${((100 * main.gzBytes) / all.gzBytes).toFixed(1)}%`,
          target: { text: `≤ ${MAIN_GZ_KB} KB gz`, met: mainOk },
        },
        ...engineWorkerRows(g, engineWorker),
        partRow(g, 'model worker', modelWorker),
        partRow(g, 'WebLLM chunk', webllm),
        partRow(g, 'llama.cpp model worker', ggufWorker),
        partRow(g, 'wllama chunk', holding(g, WLLAMA_MARKER)),
        partRow(g, 'CodeMirror chunk', codemirror),
        await wasmRow(
          build.dir,
          'tree-sitter wasm, runtime + grammars',
          (f) => !isLlamaWasm(f),
          'fetched by the engine worker',
        ),
        await wasmRow(
          build.dir,
          'llama.cpp wasm (wllama)',
          isLlamaWasm,
          'fetched by the llama.cpp worker when a GGUF model loads',
        ),
        await noLibraryRow(g, 'WebLLM', '@mlc-ai/web-llm', WEBLLM_MARKER),
        await noLibraryRow(g, 'wllama', '@wllama/wllama', WLLAMA_MARKER),
        await pyodideRow(build.dir, g),
        await noLibraryRow(g, 'Pyodide', 'pyodide/pyodide.asm.mjs', PYODIDE_MARKER),
        { figure: 'vite build (wall time)', ours: `${(build.ms / 1000).toFixed(1)} s`, baseline: '' },
      ];
      return { title, unit: 'KB gzipped (raw); baseline: the whole app eager, or what loads the chunk', rows };
    },
  };
}
