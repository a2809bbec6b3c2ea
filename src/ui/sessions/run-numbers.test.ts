/** Entries with the same title get numbers, oldest first; a title used once gets none. */
import { describe, expect, it } from 'vitest';
import { runNumbers } from './run-numbers.ts';

describe('runNumbers', () => {
  it.each<[string, [id: string, title: string][], [string, number][]]>([
    ['no entries', [], []],
    [
      'all titles different',
      [
        ['a', 'x'],
        ['b', 'y'],
      ],
      [],
    ],
    [
      'three runs of one title, newest first',
      [
        ['c', 'x'],
        ['b', 'x'],
        ['a', 'x'],
      ],
      [
        ['c', 3],
        ['b', 2],
        ['a', 1],
      ],
    ],
    [
      'mixed',
      [
        ['d', 'y'],
        ['c', 'x'],
        ['b', 'z'],
        ['a', 'x'],
      ],
      [
        ['c', 2],
        ['a', 1],
      ],
    ],
  ])('%s', (_name, saved, expected) => {
    expect([...runNumbers(saved.map(([id, title]) => ({ id, title })))]).toEqual(expected);
  });
});
