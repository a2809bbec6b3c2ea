import { describe, expect, it } from 'vitest';
import { loadsText } from './loads-text.ts';

const timing = { startedAt: 0, modelMs: 0, toolMs: 500 };

describe('loadsText', () => {
  it.each([
    ['nothing loaded', timing, ''],
    ['an empty list', { ...timing, loads: [] }, ''],
    [
      'one part',
      { ...timing, loads: [{ what: 'git (isomorphic-git)', ms: 120.4 }] },
      'loaded git (isomorphic-git) in 120 ms',
    ],
    [
      'two parts, in load order',
      {
        ...timing,
        loads: [
          { what: 'the shell parser (tree-sitter-bash)', ms: 41 },
          { what: 'the JavaScript checker (acorn)', ms: 8 },
        ],
      },
      'loaded the shell parser (tree-sitter-bash) in 41 ms, the JavaScript checker (acorn) in 8 ms',
    ],
  ])('%s', (_name, t, text) => {
    expect(loadsText(t)).toBe(text);
  });
});
