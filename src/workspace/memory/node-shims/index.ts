/**
 * The Node built-ins the offline JavaScript sandbox provides, as module source text, and how a
 * specifier names them. The shims are plain JavaScript files next to this one, loaded with
 * Vite's `?raw`: they run inside the sandbox as they are written, with no build step between.
 * The Jest-style runner and the bundle of Jest's `expect` it uses are not among them: they
 * are loaded on first use (`loadJestShims`), only for a job that runs Jest-style tests or a
 * module that imports `@jest/globals` or `vitest`.
 */
import testSource from './test.js?raw';
import assertSource from './assert.js?raw';
import assertStrictSource from './assert-strict.js?raw';
import pathSource from './path.js?raw';
import utilSource from './util.js?raw';
import globalsSource from './globals.js?raw';

/** Module id → source text of every shim. Ids are the `node:` names. */
export const SHIM_SOURCES: Readonly<Record<string, string>> = {
  'node:test': testSource,
  'node:assert': assertSource,
  'node:assert/strict': assertStrictSource,
  'node:path': pathSource,
  'node:util': utilSource,
  // process, console and timers: installed by the runtime, not importable by the program.
  'node:internal/globals': globalsSource,
};

/** The Jest-style runner's module id, and that of the bundle of Jest's `expect` it imports. */
export const JEST_ID = 'node:internal/jest';
const EXPECT_ID = 'node:internal/expect';

/** The Jest-style runner's shims (id → source), loaded on first use as a chunk of their own. */
export async function loadJestShims(): Promise<Readonly<Record<string, string>>> {
  const [runner, expect] = await Promise.all([import('./jest.js?raw'), import('virtual:sandbox-expect')]);
  return { [JEST_ID]: runner.default, [EXPECT_ID]: expect.default };
}

/** Specifier → shim id, with and without the `node:` prefix where Node accepts both. */
const ALIASES: Readonly<Record<string, string>> = {
  'node:test': 'node:test',
  'node:assert': 'node:assert',
  assert: 'node:assert',
  'node:assert/strict': 'node:assert/strict',
  'assert/strict': 'node:assert/strict',
  'node:path': 'node:path',
  path: 'node:path',
  'node:path/posix': 'node:path',
  'path/posix': 'node:path',
  'node:util': 'node:util',
  util: 'node:util',
  '@jest/globals': JEST_ID,
  vitest: JEST_ID,
  [JEST_ID]: JEST_ID,
  [EXPECT_ID]: EXPECT_ID,
};

/** Node built-ins the sandbox does not provide (a bare name that is one of these is not a package). */
const OTHER_BUILTINS = new Set(
  'assert/strict async_hooks buffer child_process cluster console constants crypto dgram diagnostics_channel dns domain events fs fs/promises http http2 https inspector module net os perf_hooks process punycode querystring readline repl stream stream/promises string_decoder sys timers timers/promises tls trace_events tty url v8 vm wasi worker_threads zlib'.split(
    ' ',
  ),
);

export type BuiltinLookup =
  { readonly kind: 'shim'; readonly id: string } | { readonly kind: 'unavailable'; readonly name: string } | null;

/** What a specifier names among Node's built-ins: a shim, a built-in the sandbox lacks, or nothing. */
export function lookupBuiltin(specifier: string): BuiltinLookup {
  const id = ALIASES[specifier];
  if (id) return { kind: 'shim', id };
  const bare = specifier.startsWith('node:') ? specifier.slice(5) : specifier;
  if (specifier.startsWith('node:') || OTHER_BUILTINS.has(bare)) return { kind: 'unavailable', name: `node:${bare}` };
  return null;
}

/** The built-ins the sandbox provides, for messages. */
export const PROVIDED_BUILTINS = 'node:test, node:assert, node:assert/strict, node:path and node:util';
