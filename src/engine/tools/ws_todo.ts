/**
 * ws_todo: writes or replaces a short checklist and echoes it back. The echo is the point —
 * the plan stays in recent context, where a small model's attention is, instead of scrolling
 * away. The list lives in the session state (never in the workspace), each call replaces it
 * whole, and it is capped so a plan stays a plan.
 */
import { z } from 'zod';
import { defineTool } from '../tool.ts';
import { ok, type Note } from '../result.ts';
import type { TodoItem } from '../state.ts';

/** Items a checklist keeps; the rest of a longer list is dropped, and the result says so. */
export const MAX_TODO_ITEMS = 20;
/** Characters one item keeps. */
export const MAX_TODO_TEXT = 200;

const item = z.union([
  z.string(),
  z.object({
    text: z.string().describe('What to do, in a few words'),
    done: z.boolean().optional().describe('true once it is done and checked'),
  }),
]);

const schema = z.object({
  items: z
    .union([z.array(item), z.string()])
    .describe(
      'The whole checklist, in order: ["read the failing test", {"text": "fix", "done": false}]; "[x] text" marks a string done; [] clears it',
    ),
});

/** A leading `- [x] `, `* [ ] `, `[x] ` or plain `- ` bullet: the box sets `done`, the marks are not kept. */
const MARKER = /^\s*(?:[-*+]\s+)?(?:\[([ xX])\]\s*)?/;

function fromString(raw: string): TodoItem {
  const m = MARKER.exec(raw);
  const done = m?.[1] === 'x' || m?.[1] === 'X';
  return { text: raw.slice(m?.[0].length ?? 0).trim(), done };
}

/** The arguments as checklist items: a multi-line string is one item per non-blank line. */
function normalize(items: z.output<typeof schema>['items']): TodoItem[] {
  const list = typeof items === 'string' ? items.split('\n').filter((l) => l.trim() !== '') : items;
  return list.map((it) => (typeof it === 'string' ? fromString(it) : { text: it.text.trim(), done: it.done ?? false }));
}

/** The checklist as the model sees it: a count, `[x]`/`[ ]` lines, and the next open item. */
export function renderTodo(todo: readonly TodoItem[]): string {
  const done = todo.filter((t) => t.done).length;
  const lines = [
    `checklist (${done} of ${todo.length} done):`,
    ...todo.map((t) => `${t.done ? '[x]' : '[ ]'} ${t.text}`),
  ];
  const next = todo.find((t) => !t.done);
  lines.push(next ? `next: ${next.text}` : 'every item is done — check the result (run the tests), then finish.');
  return lines.join('\n');
}

export const wsTodo = defineTool({
  name: 'ws_todo',
  summary: 'Write/replace a short checklist, echoed back',
  writes: false,
  schema,
  aliases: { todos: 'items', todo: 'items', tasks: 'items', checklist: 'items', list: 'items' },
  async run(args, ctx) {
    const all = normalize(args.items);
    const blank = all.filter((t) => t.text === '').length;
    const filled = all.filter((t) => t.text !== '');
    const kept = filled.slice(0, MAX_TODO_ITEMS);
    let cut = 0;
    const todo = kept.map((t) => {
      if (t.text.length <= MAX_TODO_TEXT) return t;
      cut++;
      return { ...t, text: `${t.text.slice(0, MAX_TODO_TEXT - 1)}…` };
    });
    ctx.state.todo = todo;

    if (todo.length === 0) {
      return ok(
        'checklist cleared (0 items). Plan the next steps with ws_todo {"items": ["first step", "second step"]}.',
      );
    }
    const remarks: string[] = [];
    const notes: Note[] = [];
    if (filled.length > MAX_TODO_ITEMS) {
      remarks.push(
        `[kept the first ${MAX_TODO_ITEMS} of ${filled.length} items; the last ${filled.length - MAX_TODO_ITEMS} were dropped — ` +
          'a checklist is a short plan: merge small steps, or remove finished ones.]',
      );
      notes.push({
        kind: 'cap',
        text: `checklist capped at ${MAX_TODO_ITEMS} of ${filled.length} items`,
        detail: String(filled.length),
      });
    }
    if (cut > 0)
      remarks.push(
        `[${cut} item${cut === 1 ? ' was' : 's were'} cut to ${MAX_TODO_TEXT} characters — keep each item to a few words]`,
      );
    if (blank > 0) remarks.push(`[${blank} empty item${blank === 1 ? '' : 's'} skipped]`);
    return ok([renderTodo(todo), ...remarks].join('\n'), notes);
  },
});
