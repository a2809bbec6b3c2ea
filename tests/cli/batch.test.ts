/** `slm batch` through the real CLI: ordering, streaming, one session per root, malformed lines. */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, runCli, startBatch, tempRoot } from './cli-process.ts';

interface Answer {
  ok: boolean;
  text: string;
  notes: { kind: string }[];
}
const parseAll = (stdout: string): Answer[] =>
  stdout
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Answer);

afterAll(cleanup);

describe('slm batch', () => {
  it('answers each line in order, and answers a line before the next one is sent', async () => {
    const root = await tempRoot();
    await writeFile(join(root, 'one.txt'), 'first file\n');
    await writeFile(join(root, 'two.txt'), 'second file\n');
    const batch = startBatch();
    batch.send({ root, tool: 'ws_read', args: { path: 'one.txt' } });
    const first = JSON.parse(await batch.nextLine()) as Answer;
    expect(first.ok).toBe(true);
    expect(first.text).toContain('first file');
    batch.send({ root, tool: 'ws_read', args: { path: 'two.txt' } });
    batch.send({ root, tool: 'ws_read', args: { path: 'missing.txt' } });
    const second = JSON.parse(await batch.nextLine()) as Answer;
    const third = JSON.parse(await batch.nextLine()) as Answer;
    expect(second.text).toContain('second file');
    expect(third.ok).toBe(false);
    expect(third.text).toContain('missing.txt');
    expect(await batch.end()).toBe(0);
  });

  it('shares one session per root: read-before-write and the loop guard carry over, other roots stay apart', async () => {
    const [a, b] = [await tempRoot(), await tempRoot()];
    for (const d of [a, b]) await writeFile(join(d, 'existing.txt'), 'old\n');
    const write = (root: string) => ({ root, tool: 'ws_write', args: { path: 'existing.txt', content: 'new\n' } });
    const read = (root: string) => ({ root, tool: 'ws_read', args: { path: 'existing.txt' } });
    const input = [write(a), read(a), write(a), write(b), read(a), read(a), read(a)];
    const r = await runCli(['batch'], input.map((l) => JSON.stringify(l)).join('\n'));
    expect(r.code).toBe(0);
    const out = parseAll(r.stdout);
    expect(out.map((o) => o.ok)).toEqual([false, true, true, false, true, true, false]);
    expect(out[0]!.text).toMatch(/ws_read/);
    expect(out[3]!.text).toBe(out[0]!.text);
    expect(out[6]!.notes.map((n) => n.kind)).toContain('loop-guard');
    expect(await readFile(join(a, 'existing.txt'), 'utf8')).toBe('new\n');
    expect(await readFile(join(b, 'existing.txt'), 'utf8')).toBe('old\n');
  });

  it('answers every malformed line with ok:false and what was wrong, then goes on', async () => {
    const root = await tempRoot();
    await writeFile(join(root, 'a.txt'), 'alpha\n');
    const rows: ReadonlyArray<{ line: string; text: RegExp }> = [
      { line: 'not json', text: /not valid JSON/ },
      { line: '[1, 2]', text: /is \[1,2\], not a JSON object/ },
      { line: JSON.stringify({ tool: 'ws_read', args: {} }), text: /"root" must be/ },
      { line: JSON.stringify({ root, args: {} }), text: /"tool" must be/ },
      { line: JSON.stringify({ root, tool: 'ws_read', args: 'a.txt' }), text: /"args" must be a JSON object/ },
      { line: JSON.stringify({ root, tool: 'ws_read', arguments: {} }), text: /unknown key\(s\) "arguments"/ },
      {
        line: JSON.stringify({ root, tool: 'ws_read', settings: { loop_guard: 'no' } }),
        text: /loop_guard must be a boolean/,
      },
      { line: JSON.stringify({ root: join(root, 'nope'), tool: 'ws_read', args: {} }), text: /does not exist/ },
    ];
    const good = JSON.stringify({ root, tool: 'ws_read', args: { path: 'a.txt' } });
    const r = await runCli(['batch'], [...rows.map((row) => row.line), '', good].join('\n') + '\n');
    expect(r.code).toBe(0);
    const out = parseAll(r.stdout);
    expect(out).toHaveLength(rows.length + 1);
    rows.forEach((row, i) => {
      expect(out[i]!.ok, row.line).toBe(false);
      expect(out[i]!.text, row.line).toMatch(row.text);
    });
    for (const o of out.slice(0, 7))
      expect(o.text).toContain('Expected one JSON object per line: {"root": "DIR", "tool": "NAME", "args": {...}}');
    expect(out[rows.length]).toMatchObject({ ok: true });
  });

  it("refuses settings that differ from those a root's session started with", async () => {
    const root = await tempRoot();
    await writeFile(join(root, 'a.txt'), 'alpha\n');
    // A different limit each time, so the loop guard stays out of it.
    const line = (limit: number, settings?: object) =>
      JSON.stringify({ root, tool: 'ws_read', args: { path: 'a.txt', limit }, ...(settings ? { settings } : {}) });
    const r = await runCli(
      ['batch'],
      [
        line(1, { max_tool_chars: 4000 }),
        line(2, { max_tool_chars: 4000 }),
        line(3),
        line(4, { max_tool_chars: 5000 }),
      ].join('\n'),
    );
    expect(parseAll(r.stdout).map((o) => o.ok)).toEqual([true, true, true, false]);
    expect(parseAll(r.stdout)[3]!.text).toMatch(/settings differ/);
  });
});
