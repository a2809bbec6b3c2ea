/**
 * How the memory workspace's JavaScript runners resolve a relative specifier, shared by the
 * browser sandbox's module graph (js-sandbox-modules.ts) and the Jest-style runner on a Node
 * host (workspace/node/host-jest.ts). Plain functions with no loader-specific imports, so the
 * CLI (run by tsx) can load them.
 */

/** What a relative specifier may leave out, tried in this order (bundlers' and Jest's resolution). */
export const BUNDLER_CANDIDATES: readonly string[] = ['', '.js', '.mjs', '.cjs', '.json', '/index.js'];

/** POSIX join of an absolute base directory and a relative or absolute specifier. */
export function resolveSpecifier(baseDir: string, spec: string): string {
  const parts = (spec.startsWith('/') ? spec : `${baseDir}/${spec}`).split('/');
  const out: string[] = [];
  for (const p of parts) {
    if (p === '' || p === '.') continue;
    if (p === '..') out.pop();
    else out.push(p);
  }
  return `/${out.join('/')}`;
}
