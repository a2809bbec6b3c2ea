import { describe, expect, it } from 'vitest';
import { seedWorkspace } from '../../tests/support/file-tools.ts';
import { editDistance, missingPathText, nearestExistingDir, similarPaths } from './missing-path.ts';

describe('editDistance', () => {
  it.each([
    ['', '', 0],
    ['abc', 'abc', 0],
    ['util', 'utils', 1],
    ['kitten', 'sitting', 3],
    ['abc', 'xyz', 3],
    ['utli', 'util', 1],
  ])('%j ↔ %j = %i', (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
    expect(editDistance(b, a)).toBe(d);
  });
  it('stops early past the bound', () => {
    expect(editDistance('aaaaaaaa', 'bbbbbbbb', 2)).toBe(3);
  });
});

const SEED = {
  'src/util.ts': '',
  'lib/util.ts': '',
  'src/Util.ts': '',
  'src/util.js': '',
  'src/utils/': '',
  'src/other.ts': '',
  'node_modules/x/util.ts': '',
};

describe('similarPaths', () => {
  it.each([
    [
      'same name elsewhere and other case first, then other extensions, then near spellings',
      'app/util.ts',
      ['lib/util.ts', 'src/Util.ts', 'src/util.ts', 'src/util.js', 'src/utils/'],
    ],
    ['swapped letters in the name', 'src/utli.ts', ['src/util.ts', 'src/Util.ts', 'lib/util.ts']],
    [
      'a plural folder for a singular file',
      'src/utils.ts',
      ['src/util.ts', 'src/Util.ts', 'lib/util.ts', 'src/util.js', 'src/utils/'],
    ],
    ['nothing alike', 'src/zzzzqqqq.py', []],
  ])('%s', async (_n, wanted, expected) => {
    const ws = await seedWorkspace(SEED);
    const got = await similarPaths(ws, wanted);
    expect(got).toEqual(expect.arrayContaining(expected));
    expect(got.length).toBeLessThanOrEqual(5);
    if (expected.length === 0) expect(got).toEqual([]);
    expect(got.some((p) => p.startsWith('node_modules'))).toBe(false);
  });

  it.each([
    [
      'the same name (any case) before another extension before a near spelling',
      'app/util.ts',
      ['lib/util.ts', 'src/util.ts', 'src/Util.ts', 'src/util.js', 'src/utils/'],
    ],
    [
      'the nearest name first, then the nearest path',
      'src/utli.ts',
      ['src/util.ts', 'src/Util.ts', 'src/util.js', 'lib/util.ts'],
    ],
  ])('ranks %s', async (_n, wanted, expected) => {
    const ws = await seedWorkspace(SEED);
    expect(await similarPaths(ws, wanted)).toEqual(expected);
  });
});

describe('missingPathText', () => {
  it('names the path, similar files, and ws_glob/ws_list calls for the nearest existing folder', async () => {
    const ws = await seedWorkspace(SEED);
    expect(await nearestExistingDir(ws, 'src/a/b/c.ts')).toBe('src');
    const text = await missingPathText(ws, 'src/a/utils.ts', 'src/a/utils.ts');
    expect(text.split('\n')[0]).toBe('src/a/utils.ts does not exist.');
    expect(text).toContain('Similarly named: ');
    expect(text).toContain('ws_glob {"pattern":"**/utils.ts"} or ws_list {"path":"src"}.');
  });
});
