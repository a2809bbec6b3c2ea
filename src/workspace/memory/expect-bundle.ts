/**
 * The `expect` package (Jest's matchers, MIT) as one ES module's source text, for the
 * JavaScript sandbox's Jest-style runner. The sandbox runs module source it is handed, with no
 * package resolution and no Node, so Vite bundles `expect` at build time into the virtual
 * module `virtual:sandbox-expect` (its default export is the bundle's text). jest-util,
 * jest-message-util and chalk are replaced by the small files in node-shims/expect-stubs/: the
 * real ones read the filesystem, the CI environment and glob libraries, and colour their text.
 * The page never imports it: js-sandbox-modules.ts loads it, as a chunk of its own, only when a
 * Jest-style test runs.
 */
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

/** The virtual module's id. */
export const EXPECT_MODULE_ID = 'virtual:sandbox-expect';
const RESOLVED_ID = `\0${EXPECT_MODULE_ID}`;

const stub = (name: string) => fileURLToPath(new URL(`./node-shims/expect-stubs/${name}.js`, import.meta.url));

/** Packages of `expect`'s tree replaced by the sandbox's own files. */
const STUBS: Readonly<Record<string, string>> = {
  'jest-util': stub('jest-util'),
  'jest-message-util': stub('jest-message-util'),
  chalk: stub('chalk'),
};

/** Bundles `expect` for a worker with no Node: one ES module, no imports left. */
export async function bundleExpect(): Promise<string> {
  const { build } = await import('rolldown');
  const out = await build({
    input: fileURLToPath(new URL('./node-shims/expect-stubs/entry.js', import.meta.url)),
    cwd: fileURLToPath(new URL('../../..', import.meta.url)),
    platform: 'browser',
    write: false,
    resolve: { alias: STUBS },
    // The bundle ends up inside `process` shims of the sandbox; `process.env.NODE_ENV` is not read.
    transform: { define: { 'process.env.NODE_ENV': '"production"' } },
    output: { format: 'esm', minify: true, codeSplitting: false },
    logLevel: 'warn',
  });
  const chunk = out.output[0];
  if (chunk.type !== 'chunk') throw new Error(`bundling expect gave a ${chunk.type}, not a chunk`);
  const left = /\b(?:require|__require)\(["'][^"']+["']\)/.exec(chunk.code);
  if (left) throw new Error(`the expect bundle still loads ${left[0]}: add a stub for it in expect-bundle.ts`);
  return chunk.code;
}

/** Serves `virtual:sandbox-expect`: `export default "<the bundle's source>"`. */
export function sandboxExpect(): Plugin {
  let code: Promise<string> | null = null;
  return {
    name: 'slmcode-sandbox-expect',
    resolveId: (id) => (id === EXPECT_MODULE_ID ? RESOLVED_ID : null),
    async load(id) {
      if (id !== RESOLVED_ID) return null;
      code ??= bundleExpect();
      return `export default ${JSON.stringify(await code)};`;
    },
  };
}
