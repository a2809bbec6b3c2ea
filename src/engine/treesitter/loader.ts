/**
 * web-tree-sitter, initialized once per runtime. The engine cannot know where wasm files live
 * (a Vite asset URL in the browser, a node_modules path in Node), so the host registers a
 * `WasmSource` first (src/platform/); the shell policy and the syntax checkers then ask for a
 * language by name.
 */
import { Language, Parser } from 'web-tree-sitter';

export type GrammarName = 'bash' | 'python' | 'go';

/** Fetches the bytes of web-tree-sitter's own wasm, or of one grammar. */
export interface WasmSource {
  runtime(): Promise<Uint8Array>;
  grammar(name: GrammarName): Promise<Uint8Array>;
}

let source: WasmSource | null = null;
let ready: Promise<void> | null = null;
const languages = new Map<GrammarName, Promise<Language>>();

/** Registers where the wasm files come from. Call once at start-up, before any parse. */
export function setWasmSource(s: WasmSource): void {
  source = s;
}

export function hasWasmSource(): boolean {
  return source !== null;
}

function init(): Promise<void> {
  if (!source) throw new Error('tree-sitter: no WasmSource registered; call setWasmSource() at start-up (src/platform/)');
  const s = source;
  ready ??= s.runtime().then((wasmBinary) => Parser.init({ wasmBinary }));
  return ready;
}

/** A new parser for `name` (callers keep it; parsers are cheap, languages are cached). */
export async function parserFor(name: GrammarName): Promise<Parser> {
  await init();
  let lang = languages.get(name);
  if (!lang) {
    lang = source!.grammar(name).then((bytes) => Language.load(bytes));
    languages.set(name, lang);
  }
  const parser = new Parser();
  parser.setLanguage(await lang);
  return parser;
}
