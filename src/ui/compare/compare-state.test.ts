/**
 * The split view's state over the real worker protocol (in one process): the URL names two
 * sessions, both are replayed, the rows align, the first divergence is found, stepping moves
 * the row (and the URL); a saved session, a held one and an unknown source open or say why.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { MemorySessionStore } from '../../session/idb-store.ts';
import { useNodeWasm } from '../../platform/node-wasm.ts';
import type { EngineClient, Session } from '../../worker/client.ts';
import { connectInProcess } from '../../worker/in-process.ts';
import { createTemplateSession } from '../../worker/starter-session.ts';
import { bundledExamples } from '../sessions/bundled.ts';
import { compareHref, CompareState, savedSource } from './compare-state.svelte.ts';

useNodeWasm();

const open: EngineClient[] = [];
afterEach(() => {
  for (const c of open.splice(0)) c.dispose();
});

const text = (name: string) => readFileSync(new URL(`../../../examples/${name}.session.json`, import.meta.url), 'utf8');
const examples = bundledExamples({
  '/examples/drifted-edit.session.json': async () => text('drifted-edit'),
  '/examples/thirty-steps.session.json': async () => text('thirty-steps'),
});

function setup() {
  const { client } = connectInProcess(() => createTemplateSession());
  open.push(client);
  const store = new MemorySessionStore();
  const route = { query: '', setQuery: (q: string) => void (route.query = q) };
  const state = new CompareState({
    client,
    lists: { lessons: [], examples, saved: [] },
    store: Promise.resolve(store),
    route,
  });
  return { state, route, store };
}

describe('CompareState', () => {
  it('opens the two sessions the URL names, aligns them and marks where they part', async () => {
    const { state } = setup();
    await state.sync('a=example:drifted-edit&b=example:thirty-steps');
    expect(state.a.state).toBe('ready');
    expect(state.b.state).toBe('ready');
    // Every step of each side appears once.
    expect(state.rows.filter((r) => r.left !== null)).toHaveLength(3);
    expect(state.rows.filter((r) => r.right !== null)).toHaveLength(30);
    // Both read first, but not the same file at the same place: the first row already differs.
    expect(state.divergence?.row).toBe(state.states.findIndex((s) => s !== 'same'));
    expect(state.divergence?.text).toMatch(/step 1/);
    // The drifted edit meets an edit of the thirty steps, and done meets done.
    const done = state.rows.find((r) => r.left === 3);
    expect(done?.right).toBe(30);
  });

  it('finds no divergence between a session and itself', async () => {
    const { state } = setup();
    await state.sync('a=example:drifted-edit&b=example:drifted-edit');
    expect(state.rows.map((r) => [r.left, r.right])).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
    ]);
    expect(state.divergence).toBeNull();
  });

  it('compares the results the records keep, not the replay: a run whose record saw another text parts there', async () => {
    const { state } = setup();
    const session = JSON.parse(text('drifted-edit')) as Session;
    const changed: Session = {
      ...session,
      steps: session.steps.map((s, i) =>
        i === 1 ? { ...s, resultText: 'No match for old_str (a naive harness).' } : s,
      ),
    };
    await state.sync(`a=example:drifted-edit&b=${state.hold('changed', changed)}`);
    expect(state.divergence).toMatchObject({ row: 1, state: 'result' });
    expect(state.states).toEqual(['same', 'result', 'same']);
  });

  it('steps both sides together and writes the row to the URL, clamped to the rows', async () => {
    const { state, route } = setup();
    route.query = 'a=example:drifted-edit&b=example:drifted-edit';
    await state.sync(route.query);
    state.move(1);
    expect(state.selected).toEqual({ left: 2, right: 2 });
    expect(route.query).toBe('a=example:drifted-edit&b=example:drifted-edit&row=2');
    state.move(5);
    expect(state.row).toBe(2);
    state.selectFirst();
    expect(route.query).toMatch(/row=1$/);
    state.swap();
    expect(route.query).toBe('a=example:drifted-edit&b=example:drifted-edit&row=1');
  });

  it('opens a saved session and a held one, and says why an unknown or vanished one cannot open', async () => {
    const { state, store } = setup();
    const session = JSON.parse(text('drifted-edit')) as Session;
    await store.put(
      { id: 'x1', title: 'Mine', createdAt: '', updatedAt: '', steps: 3, status: 'ended', source: 'file' },
      session,
    );
    const held = state.hold('From the eval page', session);
    await state.sync(`a=${savedSource('x1')}&b=${held}`);
    expect([state.a.state, state.b.state]).toEqual(['ready', 'ready']);
    await state.sync('a=saved:gone&b=nothing:here');
    expect(state.a).toMatchObject({ state: 'error', text: expect.stringMatching(/not among the sessions saved/) });
    expect(state.b).toMatchObject({ state: 'error', text: expect.stringMatching(/names no session/) });
    await state.sync('a=tab:99');
    expect(state.a).toMatchObject({ state: 'error', text: expect.stringMatching(/before a reload; open it again/) });
    expect(state.b.state).toBe('empty');
  });

  it('makes an Eval cell portable: its source is a share link that opens it, with its title, in another tab', async () => {
    const { state } = setup();
    const session = JSON.parse(text('drifted-edit')) as Session;
    const source = await state.portable('Eval: t · on · seed 1', session, 'http://localhost:4173/#/eval');
    expect(source).toMatch(/^link:http:\/\/localhost:4173\/#s=/);
    // Another tab: a fresh page state that never held anything.
    const other = setup().state;
    await other.sync(new URLSearchParams({ a: source }).toString());
    expect(other.a).toMatchObject({ state: 'ready', title: 'Eval: t · on · seed 1' });
    expect(other.heldHere('a')).toBe(false);
  });

  it('holds a session whose link would be too long in this tab, and says that side is held here', async () => {
    const { state } = setup();
    const session = JSON.parse(text('drifted-edit')) as Session;
    // Raw outputs no compressor shrinks much: random text, well past the link bound.
    const noise = Array.from({ length: 160_000 }, () => String.fromCharCode(33 + Math.floor(Math.random() * 90))).join(
      '',
    );
    const long: Session = { ...session, steps: session.steps.map((st, i) => (i === 0 ? { ...st, raw: noise } : st)) };
    const source = await state.portable('big', long, 'http://localhost:4173/');
    expect(source).toMatch(/^tab:\d+$/);
    await state.sync(`a=${source}`);
    expect(state.heldHere('a')).toBe(true);
    expect(state.heldHere('b')).toBe(false);
  });
});

describe('compareHref', () => {
  it.each<[string, string | undefined, string]>([
    ['example:a', undefined, '#/compare?a=example:a'],
    ['saved:1', 'lesson:x', '#/compare?a=saved:1&b=lesson:x'],
    ['link:http://h/#s=a&b', undefined, '#/compare?a=link:http:%2F%2Fh%2F%23s%3Da%26b'],
  ])('%s and %s → %s', (a, b, href) => {
    expect(compareHref(a, b)).toBe(href);
  });
});
