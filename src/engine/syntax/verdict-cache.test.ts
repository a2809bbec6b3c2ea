/**
 * The verdict cache: a verdict is reused only for exactly the same path and text, a changed
 * text is checked again, undecided verdicts are never kept, the least recently used entry goes
 * first; and in the post-edit hook, a broken edit's "before" text is answered from the verdict
 * the hook gave when that text was written, with the same result as without the cache.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeWasm } from '../../platform/node-wasm.ts';
import { Engine } from '../engine.ts';
import { wsEdit } from '../tools/ws_edit.ts';
import { FILE_TOOLS, readText, seedWorkspace } from '../../../tests/support/file-tools.ts';
import { checkSyntax } from './check.ts';
import { createSyntaxPostEdit, type SyntaxPostEditOptions } from './post-edit.ts';
import { VerdictCache, withVerdictCache } from './verdict-cache.ts';
import type { SyntaxVerdict } from './verdict.ts';

/** A checker that records what it is asked: `SLOW` is over budget, `.md` has no checker, `BAD` is broken. */
function countingChecker(asked: string[]) {
  return async (path: string, text: string): Promise<SyntaxVerdict | null> => {
    asked.push(`${path}:${text}`);
    if (path.endsWith('.md')) return null;
    if (text.includes('SLOW')) return { status: 'skipped', checker: 'fake', message: 'over budget' };
    return text.includes('BAD')
      ? { status: 'error', checker: 'fake', message: '1:1 bad' }
      : { status: 'ok', checker: 'fake' };
  };
}

interface Row {
  readonly name: string;
  readonly capacity?: number;
  /** `path:text` per call. */
  readonly calls: readonly string[];
  /** The calls that reached the checker. */
  readonly asked: readonly string[];
}

const rows: Row[] = [
  {
    name: 'the same path and text is answered from the cache',
    calls: ['a.py:x = 1', 'a.py:x = 1'],
    asked: ['a.py:x = 1'],
  },
  {
    name: 'a changed text is checked again',
    calls: ['a.py:x = 1', 'a.py:x = 2', 'a.py:x = 2'],
    asked: ['a.py:x = 1', 'a.py:x = 2'],
  },
  { name: 'an error verdict is reused like an ok one', calls: ['a.py:BAD', 'a.py:BAD'], asked: ['a.py:BAD'] },
  {
    name: 'the same text under another path is checked again (the path picks the checker)',
    calls: ['a.json:{}', 'tsconfig.json:{}'],
    asked: ['a.json:{}', 'tsconfig.json:{}'],
  },
  { name: 'a skipped verdict is not kept', calls: ['a.py:SLOW', 'a.py:SLOW'], asked: ['a.py:SLOW', 'a.py:SLOW'] },
  {
    name: 'no verdict (a file type without a checker) is not kept',
    calls: ['a.md:# x', 'a.md:# x'],
    asked: ['a.md:# x', 'a.md:# x'],
  },
  {
    name: 'past its capacity the least recently used verdict goes',
    capacity: 2,
    calls: ['a.py:A', 'a.py:B', 'a.py:C', 'a.py:A'],
    asked: ['a.py:A', 'a.py:B', 'a.py:C', 'a.py:A'],
  },
  {
    name: 'a hit makes a verdict recent again',
    capacity: 2,
    calls: ['a.py:A', 'a.py:B', 'a.py:A', 'a.py:C', 'a.py:A'],
    asked: ['a.py:A', 'a.py:B', 'a.py:C'],
  },
];

describe('withVerdictCache', () => {
  it.each(rows)('$name', async (row) => {
    const asked: string[] = [];
    const checker = countingChecker(asked);
    const cached = withVerdictCache(checker, new VerdictCache(row.capacity));
    for (const call of row.calls) {
      const [path, text] = [call.slice(0, call.indexOf(':')), call.slice(call.indexOf(':') + 1)];
      // Every answer is the checker's own verdict for that text, cached or not.
      expect(await cached(path, text)).toEqual(await countingChecker([])(path, text));
    }
    expect(asked).toEqual(row.asked);
  });

  it('counts hits and misses', async () => {
    const cache = new VerdictCache();
    const cached = withVerdictCache(countingChecker([]), cache);
    for (const text of ['A', 'A', 'B', 'A']) await cached('a.py', text);
    expect(cache.stats).toEqual({ hits: 2, misses: 2, size: 2 });
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses a capacity of %s', (capacity) => {
    expect(() => new VerdictCache(capacity)).toThrow(RangeError);
  });
});

describe('the post-edit hook with the verdict cache', () => {
  beforeAll(() => useNodeWasm());

  const PY = 'def f(x):\n    value = x + 1\n    return value\n';

  /** ws_read, then each edit in turn; returns every result text and the file afterwards. */
  async function session(options: SyntaxPostEditOptions, edits: readonly [string, string][]) {
    const ws = await seedWorkspace({ 'a.py': PY });
    const engine = new Engine({
      workspace: ws,
      tools: [...FILE_TOOLS, wsEdit],
      postEdit: createSyntaxPostEdit(options),
      settings: { loop_guard: false },
    });
    await engine.call('ws_read', { path: 'a.py' });
    const texts: string[] = [];
    for (const [old_str, new_str] of edits)
      texts.push((await engine.call('ws_edit', { path: 'a.py', old_str, new_str })).text);
    return { texts, file: await readText(ws, 'a.py') };
  }

  // A good edit, then two different broken retries of the next one (each is reverted).
  const EDITS: [string, string][] = [
    ['value = x + 1', 'value = x + 2'],
    ['    return value', '        return value'],
    ['    return value', '    return (value'],
  ];

  it('a broken edit reuses the verdict of the text the last edit wrote; a changed text is checked again', async () => {
    const cache = new VerdictCache();
    const cached = await session({ verdictCache: cache }, EDITS);
    // Misses: the three texts the edits wrote. Hits: the "before" of each reverted edit, which
    // is the text the first edit wrote and the hook judged then.
    expect(cache.stats).toEqual({ hits: 2, misses: 3, size: 3 });
    expect(cached.texts[1]).toMatch(/^EDIT REVERTED — a\.py parsed correctly before your change/);
    expect(cached.texts[2]).toMatch(/^EDIT REVERTED — a\.py parsed correctly before your change/);
    // The same session judged afresh every time gives the same answers, byte for byte.
    const fresh = await session({ check: checkSyntax }, EDITS);
    expect(cached).toEqual(fresh);
    expect(cached.file).toBe(PY.replace('x + 1', 'x + 2'));
  });
});
