/** The Node host's WasmSource: reads the wasm files from node_modules. */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { setWasmSource, type GrammarName } from '../engine/treesitter/loader.ts';

const require = createRequire(import.meta.url);

/** A file in a package's folder (found through its main entry, since some packages do not export package.json). */
function packageFile(pkg: string, file: string): string {
  const entry = require.resolve(pkg);
  const marker = `/node_modules/${pkg}/`;
  const at = entry.lastIndexOf(marker);
  return at >= 0 ? join(entry.slice(0, at + marker.length), file) : join(dirname(entry), file);
}

export function useNodeWasm(): void {
  setWasmSource({
    runtime: async () => new Uint8Array(await readFile(packageFile('web-tree-sitter', 'web-tree-sitter.wasm'))),
    grammar: async (name: GrammarName) =>
      new Uint8Array(await readFile(packageFile(`tree-sitter-${name}`, `tree-sitter-${name}.wasm`))),
  });
}
