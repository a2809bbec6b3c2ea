/**
 * ws_todo: one row per input shape and rule — objects, strings with and without check boxes,
 * a multi-line string, aliases, the item cap, the text cap, blank items, clearing — each checking
 * the echoed text and the checklist kept in the session state.
 */
import { describe, expect, it } from 'vitest';
import { Engine } from '../engine.ts';
import { MemoryWorkspace } from '../../workspace/memory/memory-workspace.ts';
import { MAX_TODO_ITEMS, MAX_TODO_TEXT, wsTodo } from './ws_todo.ts';
import type { TodoItem } from '../state.ts';

function engine(): Engine {
  return new Engine({ workspace: new MemoryWorkspace(), tools: [wsTodo], settings: { loop_guard: false } });
}

const many = Array.from({ length: MAX_TODO_ITEMS + 3 }, (_, i) => `step ${i + 1}`);

interface Row {
  name: string;
  args: Record<string, unknown>;
  ok: boolean;
  /** The exact text. */
  text: string;
  /** The checklist in the session state afterwards. */
  state: TodoItem[];
}

const rows: Row[] = [
  {
    name: 'objects with done flags',
    args: {
      items: [
        { text: 'read the failing test', done: true },
        { text: 'fix clamp' },
        { text: 'run the tests', done: false },
      ],
    },
    ok: true,
    text: 'checklist (1 of 3 done):\n[x] read the failing test\n[ ] fix clamp\n[ ] run the tests\nnext: fix clamp',
    state: [
      { text: 'read the failing test', done: true },
      { text: 'fix clamp', done: false },
      { text: 'run the tests', done: false },
    ],
  },
  {
    name: 'strings, with Markdown check boxes and bullets read as such',
    args: { items: ['- [x] read', '[X] locate', '* [ ] fix', 'verify'] },
    ok: true,
    text: 'checklist (2 of 4 done):\n[x] read\n[x] locate\n[ ] fix\n[ ] verify\nnext: fix',
    state: [
      { text: 'read', done: true },
      { text: 'locate', done: true },
      { text: 'fix', done: false },
      { text: 'verify', done: false },
    ],
  },
  {
    name: 'one multi-line string is one item per line',
    args: { items: '[x] read\n\nfix\n' },
    ok: true,
    text: 'checklist (1 of 2 done):\n[x] read\n[ ] fix\nnext: fix',
    state: [
      { text: 'read', done: true },
      { text: 'fix', done: false },
    ],
  },
  {
    name: 'blank items in a list are skipped, and the result says so',
    args: { items: ['read', '  ', { text: '' }] },
    ok: true,
    text: 'checklist (0 of 1 done):\n[ ] read\nnext: read\n[2 empty items skipped]',
    state: [{ text: 'read', done: false }],
  },
  {
    name: 'the alias todos is accepted',
    args: { todos: ['only step'] },
    ok: true,
    text: 'checklist (0 of 1 done):\n[ ] only step\nnext: only step',
    state: [{ text: 'only step', done: false }],
  },
  {
    name: 'all done: the echo says to check and finish',
    args: { items: [{ text: 'fix', done: true }] },
    ok: true,
    text: 'checklist (1 of 1 done):\n[x] fix\nevery item is done — check the result (run the tests), then finish.',
    state: [{ text: 'fix', done: true }],
  },
  {
    name: `more than ${MAX_TODO_ITEMS} items: the first ${MAX_TODO_ITEMS} are kept and the cut is announced`,
    args: { items: many },
    ok: true,
    text:
      `checklist (0 of ${MAX_TODO_ITEMS} done):\n${many
        .slice(0, MAX_TODO_ITEMS)
        .map((s) => `[ ] ${s}`)
        .join('\n')}\nnext: step 1\n` +
      `[kept the first ${MAX_TODO_ITEMS} of ${many.length} items; the last 3 were dropped — a checklist is a short plan: merge small steps, or remove finished ones.]`,
    state: many.slice(0, MAX_TODO_ITEMS).map((text) => ({ text, done: false })),
  },
  {
    name: 'an over-long item is cut',
    args: { items: ['x'.repeat(MAX_TODO_TEXT + 50)] },
    ok: true,
    text: `checklist (0 of 1 done):\n[ ] ${'x'.repeat(MAX_TODO_TEXT - 1)}…\nnext: ${'x'.repeat(MAX_TODO_TEXT - 1)}…\n[1 item was cut to ${MAX_TODO_TEXT} characters — keep each item to a few words]`,
    state: [{ text: `${'x'.repeat(MAX_TODO_TEXT - 1)}…`, done: false }],
  },
  {
    name: 'an empty list clears the checklist',
    args: { items: [] },
    ok: true,
    text: 'checklist cleared (0 items). Plan the next steps with ws_todo {"items": ["first step", "second step"]}.',
    state: [],
  },
];

describe('ws_todo', () => {
  it.each(rows.map((r) => [r.name, r] as const))('%s', async (_n, row) => {
    const e = engine();
    await e.call('ws_todo', { items: ['old plan'] });
    const r = await e.call('ws_todo', row.args);
    expect(r.ok, r.text).toBe(row.ok);
    expect(r.text).toBe(row.text);
    expect(e.state.todo).toEqual(row.state);
  });

  it('a wrong shape is a schema error naming items, and keeps the old checklist', async () => {
    const e = engine();
    await e.call('ws_todo', { items: ['keep me'] });
    const r = await e.call('ws_todo', { items: [{ done: true }] });
    expect(r.ok).toBe(false);
    expect(r.text).toContain('items');
    expect(e.state.todo).toEqual([{ text: 'keep me', done: false }]);
  });

  it('the cap note is recorded for the inspector', async () => {
    const r = await engine().call('ws_todo', { items: many });
    expect(r.notes).toContainEqual({
      kind: 'cap',
      text: `checklist capped at ${MAX_TODO_ITEMS} of ${many.length} items`,
      detail: String(many.length),
    });
  });
});
