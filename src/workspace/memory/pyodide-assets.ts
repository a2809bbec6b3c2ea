/**
 * Pyodide's files as the tab's engine worker gets them: served by the playground itself (Vite
 * copies the wasm, the standard library and the lock file into the build as hashed assets; the
 * loader and the Emscripten module come as a chunk of their source text), never from a CDN.
 * They are fetched once, on the first `python3`, and every Python job's worker gets a copy: the
 * sandbox frame cannot fetch anything itself.
 */
import wasmUrl from 'pyodide/pyodide.asm.wasm?url';
import stdlibUrl from 'pyodide/python_stdlib.zip?url';
import lockUrl from 'pyodide/pyodide-lock.json?url';
import type { PyAssets } from './py-sandbox-host.ts';

async function fetched(url: string): Promise<Response> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url} answered HTTP ${res.status}`);
  return res;
}

/** Fetches Pyodide's five files from the playground's own origin. */
export async function fetchPyodideAssets(): Promise<PyAssets> {
  const [loader, asm, wasm, stdlib, lock] = await Promise.all([
    import('pyodide/pyodide.mjs?raw').then((m) => m.default),
    import('pyodide/pyodide.asm.mjs?raw').then((m) => m.default),
    fetched(wasmUrl).then((r) => r.arrayBuffer()),
    fetched(stdlibUrl).then((r) => r.arrayBuffer()),
    fetched(lockUrl).then((r) => r.text()),
  ]);
  return { loader, asm, wasm, stdlib, lock };
}
