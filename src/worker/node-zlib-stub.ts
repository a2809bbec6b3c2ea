/**
 * Stands in for `node:zlib` in the browser bundle. just-bash's browser build imports it for
 * its gzip/gunzip commands; the playground's shell has no use for them, so they fail with a
 * message naming what is missing instead of breaking the whole bundle. Aliased in
 * vite.config.ts.
 */

function unavailable(name: string): never {
  throw new Error(`${name} is not available in the browser workspace (no zlib); work with uncompressed files instead`);
}

/** The levels just-bash reads when it sets up gzip (zlib's own values). */
export const constants: Readonly<Record<string, number>> = Object.freeze({
  Z_BEST_SPEED: 1,
  Z_BEST_COMPRESSION: 9,
  Z_DEFAULT_COMPRESSION: -1,
});

export function gzipSync(_data: Uint8Array): Uint8Array {
  return unavailable('gzip');
}

export function gunzipSync(_data: Uint8Array): Uint8Array {
  return unavailable('gunzip');
}
