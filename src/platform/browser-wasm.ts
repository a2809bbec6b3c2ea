/** The browser host's WasmSource: Vite serves the wasm files as hashed assets. */
import runtimeUrl from 'web-tree-sitter/web-tree-sitter.wasm?url';
import bashUrl from 'tree-sitter-bash/tree-sitter-bash.wasm?url';
import pythonUrl from 'tree-sitter-python/tree-sitter-python.wasm?url';
import goUrl from 'tree-sitter-go/tree-sitter-go.wasm?url';
import { setWasmSource, type GrammarName } from '../engine/treesitter/loader.ts';

const grammars: Record<GrammarName, string> = { bash: bashUrl, python: pythonUrl, go: goUrl };

async function bytes(url: string): Promise<Uint8Array> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`could not load ${url}: HTTP ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}

export function useBrowserWasm(): void {
  setWasmSource({ runtime: () => bytes(runtimeUrl), grammar: (name) => bytes(grammars[name]) });
}
