import { describe, expect, it } from 'vitest';
import { threadCount } from './wasm-threads.ts';

describe('threadCount', () => {
  it.each([
    [false, 16, 1],
    [true, 1, 1],
    [true, 2, 1],
    [true, 8, 4],
    [true, 12, 6],
    [true, 32, 8],
  ])('isolated %s, %i logical cores → %i', (isolated, cores, threads) =>
    expect(threadCount(isolated, cores)).toBe(threads),
  );
});
