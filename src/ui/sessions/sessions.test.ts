/**
 * Sessions in the page, against the real worker host over a MessageChannel and the real
 * RunState: a start-screen run is saved after every step, a "reload" (a new Sessions over the
 * same store and tab storage) replays what was saved and continues into the same entry, a bad
 * link becomes the codec's message with nothing started, bundled examples replay with every
 * step checked, and the continuing model is chosen as documented. The store is the in-memory
 * one: IndexedDB itself is exercised in e2e/sessions.spec.ts.
 */
import { resolveObjectURL } from 'node:buffer';
import { afterEach, describe, expect, it } from 'vitest';
import { MemorySessionStore } from '../../session/idb-store.ts';
import { checkSession } from '../../session/validate.ts';
import { useNodeWasm } from '../../platform/node-wasm.ts';
import type { Session } from '../../worker/client.ts';
import { connectInProcess } from '../../worker/in-process.ts';
import { createTemplateSession } from '../../worker/starter-session.ts';
import { Router, type RouterWindow } from '../router.svelte.ts';
import { RunState } from '../run/run-state.svelte.ts';
import { StartState } from '../start/start-state.svelte.ts';
import { RECORDING_KEY, runTitle, type TabStorage } from './keeper.svelte.ts';
import { hashHasSession, openedFromText, Sessions, type SessionWindow } from './sessions.svelte.ts';

useNodeWasm();

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

async function until(what: string, cond: () => boolean, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** The address bar and history of a page, enough for the router and the link handling. */
function fakeWindow(hash: string): SessionWindow & RouterWindow {
  const location = { hash, href: `http://localhost:4173/${hash}`, pathname: '/', search: '' };
  const go = (_d: unknown, _u: string, url: string) => {
    location.hash = url.slice(url.indexOf('#'));
    location.href = `http://localhost:4173/${location.hash}`;
  };
  return {
    location,
    history: { replaceState: go, pushState: go },
    document: undefined as unknown as Document,
    addEventListener: () => {},
    removeEventListener: () => {},
  };
}

/** A tab's sessionStorage. */
function tabStorage(): TabStorage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, v),
    removeItem: (k) => void map.delete(k),
  };
}

/** One page: a worker, the run, the start screen and the sessions, over `store` and `tab`. */
async function page(store: MemorySessionStore, tab: TabStorage, hash = '#/') {
  const { client } = connectInProcess(() => createTemplateSession());
  const win = fakeWindow(hash);
  const router = new Router(win);
  const run = new RunState(client, { get: () => router.step, set: (s) => router.setStep(s) });
  const start = new StartState(client);
  await start.load();
  start.settings!.paceMs = 0;
  const sessions = new Sessions({
    client,
    store: Promise.resolve({ store, warning: null }),
    run,
    start,
    router,
    win,
    tab,
    clipboard: () => undefined,
  });
  cleanups.push(run.connect(), () => client.dispose());
  cleanups.push(sessions.connect());
  return { client, run, start, sessions, router, win };
}

describe('hashHasSession', () => {
  it.each([
    ['#s=abc', true],
    ['#x=1&s=abc', true],
    ['#/run?step=2', false],
    ['#/', false],
    ['', false],
    ['#ss=abc', false],
  ])('%s → %s', (hash, expected) => {
    expect(hashHasSession(hash)).toBe(expected);
  });
});

describe('openedFromText: where a session from outside came from, in the list', () => {
  it.each([
    [{ file: 'fix-price.session.json' }, 'opened from the file fix-price.session.json'],
    [{ link: 'https://example.org/play/#s=2AbC' }, 'opened from a share link (example.org)'],
    [{ link: ' http://localhost:4173/#s=2AbC ' }, 'opened from a share link (localhost:4173)'],
    [{ link: '#s=2AbC' }, 'opened from a share link'],
    [{ link: '2AbCdef' }, 'opened from a share link'],
  ])('%j → %s', (from, text) => {
    expect(openedFromText(from)).toBe(text);
  });
});

describe('recording, reload and continuing', () => {
  it('saves a start-screen run after every step, restores it after a reload and continues into the same entry', async () => {
    const store = new MemorySessionStore();
    const tab = tabStorage();
    const first = await page(store, tab);
    const ready = first.start.readiness;
    if (!ready.ok) throw new Error(ready.reason);
    await first.run.start({ ...ready.config, paused: true });
    for (const n of [1, 2]) {
      await first.run.control('step');
      await until(`step ${n} saved`, () => first.sessions.keeper.savedSteps === n);
    }
    // The page shows steps that come close together in one update (EVENT_BATCH_MS).
    await until('both steps shown', () => first.run.records.length === 2);
    const script = first.start.options!.recorded[0]!;
    const [meta] = await store.list();
    expect(meta).toMatchObject({ steps: 2, status: 'live', source: 'run', title: runTitle(first.run.info!) });
    expect(meta!.title).toMatch(
      new RegExp(`^tiny-utils \\(starter\\) · scripted: ${script.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} · \\S`),
    );
    expect(tab.map.get(RECORDING_KEY)).toBe(meta!.id);
    const saved = (await store.get(meta!.id))!;
    expect(saved.steps.map((s) => s.raw)).toEqual(first.run.records.map((r) => r.step.raw));
    expect((await checkSession(saved)).ok).toBe(true);

    // The reload of the run view: a new page over the same storage finds the run and replays what was saved.
    const second = await page(store, tab, '#/run');
    await until('the restored replay', () => second.run.verdict !== null && second.sessions.keeper.shown !== null);
    expect(second.run.verdict).toMatchObject({ ok: true, checked: 2 });
    expect(second.sessions.keeper.shown).toMatchObject({ id: meta!.id, source: 'restored' });
    expect(second.router.page).toBe('run');
    await until('the replay to end', () => second.run.phase === 'ended');
    expect(second.run.endOfRecording).toBe(true);
    expect(second.run.stop?.text).toBe(
      'the recording ends here: its 2 recorded steps were replayed. To go on, pick a step and press "Continue from here".',
    );

    const choice = second.sessions.continueChoice(saved);
    expect(choice).toMatchObject({ ok: true, choice: { kind: 'scripted', recordedId: script.id } });
    await second.sessions.continueFrom(2);
    await until('the continued run to end', () => second.run.phase === 'ended' && second.run.records.length === 7);
    await second.sessions.keeper.settled();
    expect(second.run.records.map((r) => r.check?.reproduced)).toEqual([
      true,
      true,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    const after = await store.list();
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({
      id: meta!.id,
      steps: 7,
      status: 'ended',
      createdAt: meta!.createdAt,
      stopText: expect.stringMatching(/^finished with done/),
    });
    expect(tab.map.has(RECORDING_KEY)).toBe(false);
    // The record says which part was cut short: the two steps saved before the reload.
    const whole = (await store.get(meta!.id))!;
    expect(whole.steps).toHaveLength(7);
    expect(whole.cutShort).toEqual([2]);
    expect((await checkSession(JSON.parse(JSON.stringify(whole)))).ok).toBe(true);

    // Opened again, it still says so; a fork of it from step 1 holds no cut, and is a new entry.
    const third = await page(store, tab, '#/');
    await third.sessions.openSaved(after[0]!);
    await until('the reopened replay to end', () => third.run.phase === 'ended');
    expect(third.sessions.keeper.shown).toMatchObject({ source: 'saved', session: { cutShort: [2] } });
    await third.sessions.continueFrom(1);
    await until('the fork to end', () => third.run.phase === 'ended' && third.run.records.length === 7);
    await third.sessions.keeper.settled();
    const fork = (await store.list()).find((m) => m.id !== meta!.id)!;
    expect((await store.get(fork.id))!.cutShort).toBeUndefined();
  });
});

describe('what is kept, and how it is named', () => {
  /** Starts the starter run paused and steps it `n` times; returns the page. */
  async function stepped(store: MemorySessionStore, tab: TabStorage, n: number) {
    const p = await page(store, tab);
    const ready = p.start.readiness;
    if (!ready.ok) throw new Error(ready.reason);
    await p.run.start({ ...ready.config, paused: true });
    for (let i = 1; i <= n; i++) {
      await p.run.control('step');
      await until(`step ${i} saved`, () => p.sessions.keeper.savedSteps === i);
    }
    return p;
  }

  it('a run that ends before its first step is not saved', async () => {
    const store = new MemorySessionStore();
    const p = await stepped(store, tabStorage(), 0);
    await until('the header', () => p.sessions.keeper.shown?.recording === true);
    await p.run.control('stop');
    await until('the end', () => p.run.phase === 'ended');
    await p.sessions.keeper.settled();
    expect(p.run.records).toHaveLength(0);
    expect(await store.list()).toEqual([]);
  });

  it.each([
    [
      'a template run',
      {
        workspace: { kind: 'template', title: 'tiny-utils (starter)' },
        model: { label: 'qwen2.5-coder:1.5b' },
        task: 'Fix the failing test.\nThen run it.',
      },
      'tiny-utils (starter) · qwen2.5-coder:1.5b · Fix the failing test.',
    ],
    [
      'own files, a long task cut',
      {
        workspace: { kind: 'files', fileCount: 3 },
        model: { label: 'WebLLM Qwen' },
        task: 'Add a --verbose flag to the command-line parser and document it in README',
      },
      'your files (3) · WebLLM Qwen · Add a --verbose flag to the command-line parser…',
    ],
    [
      'no task text',
      { workspace: { kind: 'files', fileCount: 1 }, model: { label: 'm' }, task: '  ' },
      'your files (1) · m',
    ],
  ] as const)('runTitle: %s', (_name, info, title) => {
    expect(runTitle(info as unknown as Parameters<typeof runTitle>[0])).toBe(title);
  });

  it('renames a saved session, and the run still being recorded keeps the new title', async () => {
    const store = new MemorySessionStore();
    const p = await stepped(store, tabStorage(), 1);
    const [meta] = await store.list();
    await p.sessions.rename(meta!, '  my first try  ');
    expect(p.sessions.saved).toMatchObject([{ id: meta!.id, title: 'my first try' }]);
    await p.run.control('step');
    await until('step 2 saved', () => p.sessions.keeper.savedSteps === 2);
    expect(await store.list()).toMatchObject([{ id: meta!.id, title: 'my first try', steps: 2 }]);
    // A blank title keeps the old one.
    await p.sessions.rename((await store.list())[0]!, '   ');
    expect((await store.list())[0]!.title).toBe('my first try');
  });

  it('a delete can be undone: the session comes back as it was', async () => {
    const store = new MemorySessionStore();
    const p = await stepped(store, tabStorage(), 2);
    await p.run.control('stop');
    await until('the end', () => p.run.phase === 'ended');
    await p.sessions.keeper.settled();
    const [meta] = await store.list();
    const before = await store.get(meta!.id);
    await p.sessions.remove(meta!);
    expect(await store.list()).toEqual([]);
    expect(p.sessions.deleted?.meta.id).toBe(meta!.id);
    await p.sessions.undoRemove();
    expect(await store.list()).toEqual([meta]);
    expect(await store.get(meta!.id)).toEqual(before);
    expect(p.sessions.deleted).toBeNull();
  });

  it('a reload of the start screen after an interrupted run stays on the start screen and offers the run', async () => {
    const store = new MemorySessionStore();
    const tab = tabStorage();
    await stepped(store, tab, 2);
    const [meta] = await store.list();
    const second = await page(store, tab, '#/');
    await until('the offer', () => second.sessions.interrupted !== null);
    expect(second.sessions.interrupted).toMatchObject({ id: meta!.id, steps: 2 });
    expect(second.router.page).toBe('start');
    expect(second.run.info).toBeNull();
    await second.sessions.openInterrupted();
    expect(second.router.page).toBe('run');
    await until('the restored replay', () => second.run.verdict !== null);
    expect(second.sessions.keeper.shown).toMatchObject({ id: meta!.id, source: 'restored' });
  });
});

describe('sharing', () => {
  it('a link belongs to the run it was made for: the next run never shows it, and its own link is its own', async () => {
    const p = await page(new MemorySessionStore(), tabStorage());
    const runToEnd = async (recordedId: string) => {
      const ready = p.start.readiness;
      if (!ready.ok) throw new Error(ready.reason);
      await p.run.start({ ...ready.config, model: { kind: 'scripted', recordedId } });
      await until('the run to end', () => p.run.phase === 'ended');
      await p.sessions.keeper.settled();
      return p.sessions.keeper.shown!.session!;
    };
    const [a, b] = p.start.options!.recorded;
    const sessionA = await runToEnd(a!.id);
    await p.sessions.shareShown();
    const linkA = p.sessions.share.link!.url;
    expect(p.sessions.share.isFor(sessionA)).toBe(true);

    const sessionB = await runToEnd((b ?? a)!.id);
    expect(sessionB).not.toBe(sessionA);
    expect(p.sessions.share.isFor(sessionB)).toBe(false);
    await p.sessions.shareShown();
    expect(p.sessions.share.isFor(sessionB)).toBe(true);
    expect(p.sessions.share.link!.url).not.toBe(linkA);
    // The link carries the run's title, which fits.
    const title = p.sessions.keeper.shown!.title;
    expect(p.sessions.share.link!.url).toBe(
      (await p.client.shareLink({ ...sessionB, title }, p.win.location.href)).url,
    );
  });
});

describe('opening sessions', () => {
  it('turns a bad link into the codec message, leaves it in the address bar to be looked at, and starts nothing', async () => {
    const { sessions, run, win } = await page(new MemorySessionStore(), tabStorage(), '#s=abc$def');
    await until('the notice', () => sessions.notice !== null);
    expect(sessions.notice).toEqual({
      tone: 'error',
      text: expect.stringMatching(
        /^The shared link could not be opened\. The session link is damaged: it contains "\$" \(U\+0024\) at position 4/,
      ),
    });
    expect(win.location.hash).toBe('#s=abc$def');
    expect(run.info).toBeNull();
  });

  it('opens a good link, and then its data leaves the address bar (a reload does not open it again)', async () => {
    const made = await page(new MemorySessionStore(), tabStorage());
    const text = await made.sessions.examples.find((e) => e.key === 'example:drifted-edit')!.load();
    const checked = await checkSession(JSON.parse(text));
    if (!checked.ok) expect.fail(checked.text);
    const { url } = await made.client.shareLink(checked.session, 'http://localhost:4173/');
    const { sessions, run, win } = await page(new MemorySessionStore(), tabStorage(), url.slice(url.indexOf('#')));
    await until('the replay', () => run.info !== null);
    expect(sessions.notice).toBeNull();
    expect(win.location.hash).toMatch(/^#\/run/);
  });

  it('replays a bundled example with every step checked, opens it on step 1, and keeps nothing in the list', async () => {
    const store = new MemorySessionStore();
    const { sessions, run, router } = await page(store, tabStorage());
    const example = sessions.examples.find((e) => e.key === 'example:drifted-edit')!;
    await sessions.openBundled(example);
    await until('the verdict', () => run.verdict !== null);
    // Its last step (done) runs the tests, in the sandbox frame a browser has and Node has not:
    // here only that step differs; in Chromium every step is ✓ (e2e/lessons.spec.ts).
    expect(run.verdict).toMatchObject({
      ok: false,
      checked: 3,
      expected: 3,
      divergence: { index: 3, kind: 'shell' },
      laterDivergences: 0,
    });
    expect(sessions.keeper.shown).toMatchObject({
      source: 'example',
      title: 'Example: A drifted edit',
      recording: false,
    });
    await until('the end', () => run.phase === 'ended');
    expect(router.step).toBe(1);
    expect(run.selected?.step.index).toBe(1);
    expect(await store.list()).toEqual([]);
  });

  it('keeps a session opened from a file, and refuses a file that is not one', async () => {
    const store = new MemorySessionStore();
    const { sessions, run } = await page(store, tabStorage());
    const text = await sessions.examples.find((e) => e.key === 'example:drifted-edit')!.load();
    await sessions.openFiles([new File([text], 'mine.session.json')]);
    await until('the verdict', () => run.verdict !== null);
    expect(await store.list()).toMatchObject([
      { title: 'mine', source: 'file', steps: 3, stopText: 'opened from the file mine.session.json' },
    ]);
    await sessions.openFiles([new File(['x'], 'photo.png')]);
    expect(sessions.notice?.text).toBe(
      'photo.png is not a session file: session files end in .session.json. To run on your own files, choose "Your own files" under Task.',
    );
  });
});

describe('continueChoice', () => {
  // Each row gets the id of the start screen's recorded run.
  type Row = (id: string) => [modelId: string, expected: object];
  it.each<[string, 'scripted' | 'openai', Row]>([
    [
      'its own script, for a session that script recorded',
      'scripted',
      (id) => [`scripted:${id}`, { ok: true, choice: { kind: 'scripted', recordedId: id } }],
    ],
    [
      'no model, when the start screen offers only a script that did not record it',
      'scripted',
      () => [
        'webllm-model',
        {
          ok: false,
          reason: expect.stringContaining(
            'pick llama.cpp in this tab, a WebLLM model or an OpenAI-compatible endpoint',
          ),
        },
      ],
    ],
    [
      'the start screen endpoint',
      'openai',
      () => [
        'webllm-model',
        {
          ok: true,
          choice: { kind: 'openai', model: 'qwen2.5-coder:1.5b' },
          label: 'qwen2.5-coder:1.5b at http://127.0.0.1:11434/v1',
        },
      ],
    ],
  ])('%s', async (_name, kind, row) => {
    const { sessions, start } = await page(new MemorySessionStore(), tabStorage());
    start.modelKind = kind;
    const [modelId, expected] = row(start.options!.recorded[0]!.id);
    expect(sessions.continueChoice({ model: { id: modelId } } as Session)).toMatchObject(expected);
  });
});

describe('titles and notes travel', () => {
  /** A document whose download link hands the file's text to `files` (the Blob URL read back through node:buffer). */
  function downloads(files: { name: string; text: Promise<string> }[]): Document {
    return {
      createElement: () => {
        const a = {
          href: '',
          download: '',
          click: () => files.push({ name: a.download, text: resolveObjectURL(a.href)!.text() }),
        };
        return a;
      },
    } as unknown as Document;
  }

  it('export → open keeps the title and the note; a link carries the title; the list is searched by title, task and note', async () => {
    const store = new MemorySessionStore();
    const p = await page(store, tabStorage());
    const ready = p.start.readiness;
    if (!ready.ok) throw new Error(ready.reason);
    await p.run.start(ready.config);
    await until(
      'the run to end and be saved',
      () => p.run.phase === 'ended' && p.sessions.saved.some((m) => m.status === 'ended'),
    );
    const [made] = p.sessions.saved;
    await p.sessions.rename(made!, 'My tidy fix');
    await p.sessions.setNote(p.sessions.saved[0]!, 'why: the truncate test\nsecond line');
    const meta = p.sessions.saved[0]!;
    expect(meta).toMatchObject({ title: 'My tidy fix', note: 'why: the truncate test\nsecond line' });
    expect(meta.task).toBe(p.run.info!.task.slice(0, 300));

    const files: { name: string; text: Promise<string> }[] = [];
    (p.win as { document: Document }).document = downloads(files);
    await p.sessions.exportSaved(meta);
    expect(files.map((f) => f.name)).toEqual(['my-tidy-fix.session.json']);
    const text = await files[0]!.text;
    expect(JSON.parse(text)).toMatchObject({ title: 'My tidy fix', note: 'why: the truncate test\nsecond line' });

    // Opened elsewhere under another file name: the title and note are the record's, not the file's.
    const other = await page(new MemorySessionStore(), tabStorage());
    await other.sessions.openFiles([new File([text], 'downloaded (1).session.json')]);
    await until('the file to be kept', () => other.sessions.saved.length === 1);
    expect(other.sessions.saved[0]).toMatchObject({
      title: 'My tidy fix',
      note: 'why: the truncate test\nsecond line',
    });
    expect(other.sessions.keeper.shown?.title).toBe('My tidy fix');

    // A link from the first page carries the title.
    await p.sessions.openSaved(meta);
    await until(
      'the saved session on screen',
      () => p.sessions.keeper.shown?.title === 'My tidy fix' && p.run.phase === 'ended',
    );
    await p.sessions.shareShown();
    const url = p.sessions.share.link!.url;
    const third = await page(new MemorySessionStore(), tabStorage());
    await third.sessions.openLink(url);
    await until('the link to be kept', () => third.sessions.saved.length === 1);
    expect(third.sessions.saved[0]!.title).toBe('My tidy fix');
  }, 60_000);
});
