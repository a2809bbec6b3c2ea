import { describe, expect, it } from 'vitest';
import { fileEngine, type Seed } from '../../../tests/support/file-tools.ts';

const SEED: Seed = {
  'b.txt': 'b',
  'a.txt': 'a',
  'src/index.ts': 'x',
  'src/lib/util.ts': 'y',
  'empty/': '',
  'link-in': { link: 'src' },
  'link-out': { link: '/outside' },
};

const rows: [name: string, args: Record<string, unknown>, ok: boolean, expected: string | string[]][] = [
  [
    'lists the root sorted, / for dirs, @ -> target for symlinks',
    {},
    true,
    './ — 6 entries:\na.txt\nb.txt\nempty/\nlink-in@ -> src\nlink-out@ -> /outside\nsrc/',
  ],
  ['"." is the root', { path: '.' }, true, './ — 6 entries:'],
  ['lists a subdirectory', { path: 'src' }, true, 'src/ — 2 entries:\nindex.ts\nlib/'],
  ['a single entry is "1 entry"', { path: 'src/lib' }, true, 'src/lib/ — 1 entry:\nutil.ts'],
  ['lists through a symlink inside the root', { path: 'link-in' }, true, 'link-in/ — 2 entries:\nindex.ts\nlib/'],
  [
    'an empty directory gets an explicit message',
    { path: 'empty' },
    true,
    'empty/ is an empty directory (0 entries). Create a file in it with ws_write, or look elsewhere with ws_glob.',
  ],
  [
    'a missing directory gets an explicit message with pointers',
    { path: 'srcs' },
    false,
    ['srcs does not exist.', 'Similarly named: src/.', 'ws_glob', 'ws_list {"path":"."}'],
  ],
  [
    'a file points at ws_read',
    { path: 'src/index.ts' },
    false,
    ['src/index.ts is a file, not a directory.', 'ws_read {"path":"src/index.ts"}', 'ws_list {"path":"src"}'],
  ],
  [
    'a symlink out of the root is refused by the jail',
    { path: 'link-out' },
    false,
    ['points outside the project root'],
  ],
  ['accepts dir as path', { dir: 'src/lib' }, true, 'src/lib/ — 1 entry:\nutil.ts'],
];

describe('ws_list', () => {
  it.each(rows)('%s', async (_n, args, ok, expected) => {
    const { engine } = await fileEngine(SEED);
    const r = await engine.call('ws_list', args);
    expect(r.ok, r.text).toBe(ok);
    if (typeof expected === 'string') expect(r.text.startsWith(expected), r.text).toBe(true);
    else for (const s of expected) expect(r.text).toContain(s);
  });

  it('never returns an empty string', async () => {
    const { engine } = await fileEngine({});
    const r = await engine.call('ws_list', {});
    expect(r.text).toBe(
      './ is an empty directory (0 entries). Create a file in it with ws_write, or look elsewhere with ws_glob.',
    );
  });
});
