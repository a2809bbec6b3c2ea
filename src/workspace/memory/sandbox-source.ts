/**
 * The sandbox runtimes as a worker loads them: one module's source text, with no imports (the
 * worker imports it as a blob: module, which can resolve no relative specifier). Each runtime
 * imports the bounded output stream from sandbox-output.js, so editors and checks see a real
 * module; here that import is replaced by the module's own text.
 */
import outputSource from './sandbox-output.js?raw';

const OUTPUT_IMPORT = "import { makeOutput } from './sandbox-output.js';";

/** `source` with its import of sandbox-output.js replaced by that module's text. */
export function runtimeText(source: string): string {
  if (!source.includes(OUTPUT_IMPORT))
    throw new Error(`a sandbox runtime must import the output stream as written: ${OUTPUT_IMPORT}`);
  return source.replace(OUTPUT_IMPORT, () => outputSource.replace(/^export const makeOutput/m, 'const makeOutput'));
}
