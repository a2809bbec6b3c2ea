/**
 * web-tree-sitter, loaded and initialized once per runtime, on the first parse. The engine
 * cannot know where wasm files live (a Vite asset URL in the browser, a node_modules path in
 * Node), so the host registers a `WasmSource` first (src/platform/); the shell policy and the
 * syntax checkers then ask for a language by name. The first parser of each grammar is a timed
 * first-use load (lazy-load.ts); the first of all includes the runtime.
 */
import type { Language, Parser } from 'web-tree-sitter';
import { timedLoad } from '../lazy-load.ts';

export type GrammarName = 'bash' | 'python' | 'go';

/** Fetches the bytes of web-tree-sitter's own wasm, or of one grammar. */
export interface WasmSource {
  runtime(): Promise<Uint8Array>;
  grammar(name: GrammarName): Promise<Uint8Array>;
}

let source: WasmSource | null = null;
type TreeSitter = typeof import('web-tree-sitter');

let ready: Promise<TreeSitter> | null = null;
const languages = new Map<GrammarName, Promise<Language>>();

/** What a grammar's first parser loads, in the words a step's timing uses. */
const LOADS: Record<GrammarName, string> = {
  bash: 'the shell parser (tree-sitter-bash)',
  python: 'the Python checker (tree-sitter-python)',
  go: 'the Go checker (tree-sitter-go)',
};

/** Registers where the wasm files come from. Call once at start-up, before any parse. */
export function setWasmSource(s: WasmSource): void {
  source = s;
}

export function hasWasmSource(): boolean {
  return source !== null;
}

function init(): Promise<TreeSitter> {
  if (!source)
    throw new Error('tree-sitter: no WasmSource registered; call setWasmSource() at start-up (src/platform/)');
  const s = source;
  ready ??= Promise.all([import('web-tree-sitter'), s.runtime()]).then(async ([ts, wasmBinary]) => {
    await ts.Parser.init({ wasmBinary });
    return ts;
  });
  return ready;
}

/** A new parser for `name` (callers keep it; parsers are cheap, languages are cached). */
export function parserFor(name: GrammarName): Promise<Parser> {
  return languages.has(name) ? newParser(name) : timedLoad(LOADS[name], () => newParser(name));
}

async function newParser(name: GrammarName): Promise<Parser> {
  const ts = await init();
  let lang = languages.get(name);
  if (!lang) {
    lang = source!.grammar(name).then((bytes) => ts.Language.load(bytes));
    languages.set(name, lang);
  }
  const parser = new ts.Parser();
  parser.setLanguage(await lang);
  return parser;
}
