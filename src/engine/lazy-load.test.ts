/**
 * First-use loads: each part of the engine that loads lazily (the shell's parser, the syntax
 * checkers, git) is timed and heard once, on its first use; later uses hear nothing. Its own
 * file, because what is loaded is per module graph (vitest gives each file a fresh one).
 */
import { describe, expect, it } from 'vitest';
import { useNodeWasm } from '../platform/node-wasm.ts';
import { blobId } from './git/repo.ts';
import { loadOnce, onLoad, type LoadTiming } from './lazy-load.ts';
import { checkSyntax } from './syntax/check.ts';
import { parserFor } from './treesitter/loader.ts';

useNodeWasm();

/** What loaded while `use` ran. */
async function heard(use: () => Promise<unknown>): Promise<string[]> {
  const loads: LoadTiming[] = [];
  const stop = onLoad((l) => loads.push(l));
  try {
    await use();
  } finally {
    stop();
  }
  for (const l of loads) expect(l.ms).toBeGreaterThanOrEqual(0);
  return loads.map((l) => l.what);
}

describe('the engine parts loaded on first use', () => {
  it.each([
    [
      'the shell policy parses a command',
      () => parserFor('bash').then((p) => p.delete()),
      'the shell parser (tree-sitter-bash)',
    ],
    ['a .py file is checked', () => checkSyntax('a.py', 'x = 1\n'), 'the Python checker (tree-sitter-python)'],
    ['a .go file is checked', () => checkSyntax('a.go', 'package main\n'), 'the Go checker (tree-sitter-go)'],
    ['a .js file is checked', () => checkSyntax('a.js', 'let x = 1;\n'), 'the JavaScript checker (acorn)'],
    ['git hashes a blob', () => blobId(new Uint8Array([104, 105])), 'git (isomorphic-git)'],
  ])('%s: the first use loads it, the second loads nothing', async (_name, use, what) => {
    expect(await heard(use)).toEqual([what]);
    expect(await heard(use)).toEqual([]);
  });

  it('a JSON check loads nothing', async () => {
    expect(await heard(() => checkSyntax('a.json', '{}'))).toEqual([]);
  });
});

describe('loadOnce', () => {
  it('runs the load once for every caller, and a failed load is tried again and heard only when it succeeds', async () => {
    let attempts = 0;
    const load = loadOnce('a flaky part', async () => {
      attempts++;
      if (attempts === 1) throw new Error('offline');
      return attempts;
    });
    expect(await heard(() => expect(load()).rejects.toThrow('offline'))).toEqual([]);
    expect(await heard(() => Promise.all([load(), load()]))).toEqual(['a flaky part']);
    expect(await load()).toBe(2);
    expect(attempts).toBe(2);
  });
});
