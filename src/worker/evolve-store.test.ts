/**
 * The bandit's table in the worker: the in-memory store keeps a structured clone, the store is
 * chosen by whether IndexedDB is there, and the saving bandit writes after each step it learned
 * from (and only then), in order, without letting a failed save stop the run.
 */
import { describe, expect, it } from 'vitest';
import { EditFormatBandit, type BanditStore, type BanditTable } from '../agent/evolve.ts';
import type { Step } from '../agent/step.ts';
import type { Note } from '../engine/result.ts';
import { IdbBanditStore, MemoryBanditStore, openBanditStore, SavingBandit } from './evolve-store.ts';

/** The parts of a step `learn` reads. */
function step(tool: string, ok: boolean, notes: Note[] = [], before: string | null = 'old'): Step {
  return {
    call: { tool, args: { path: 'src/a.js' } },
    result: { ok, text: '', notes, changes: ok ? [{ path: 'src/a.js', before, after: 'new' }] : [] },
  } as unknown as Step;
}

function tableWith(pulls: number): BanditTable {
  const b = new EditFormatBandit();
  for (let i = 0; i < pulls; i++) b.record('qwen', 'javascript', 'unified_diff', 1, 'exact');
  return b.toJSON();
}

describe('MemoryBanditStore', () => {
  it('starts empty, or with the table it was given', async () => {
    expect(await new MemoryBanditStore().load()).toBeNull();
    expect(await new MemoryBanditStore(tableWith(2)).load()).toEqual(tableWith(2));
  });

  it('keeps a copy: changing the saved or the loaded object does not change the store', async () => {
    const store = new MemoryBanditStore();
    const table = structuredClone(tableWith(1)) as { arms: Record<string, unknown> };
    await store.save(table as unknown as BanditTable);
    table.arms = {};
    const loaded = (await store.load()) as unknown as { arms: Record<string, unknown> };
    expect(Object.keys(loaded.arms)).toEqual(['qwen|javascript']);
    loaded.arms = {};
    expect(Object.keys((await store.load())!.arms)).toEqual(['qwen|javascript']);
  });
});

describe('openBanditStore', () => {
  it('uses IndexedDB when the worker has it, memory when it does not', () => {
    expect(openBanditStore(undefined)).toBeInstanceOf(MemoryBanditStore);
    expect(openBanditStore({} as IDBFactory)).toBeInstanceOf(IdbBanditStore);
  });
});

describe('SavingBandit', () => {
  const rows: { what: string; step: Step; saves: number }[] = [
    { what: 'a clean ws_edit', step: step('ws_edit', true), saves: 1 },
    { what: 'a ws_patch that missed', step: step('ws_patch', false), saves: 1 },
    { what: 'a ws_write over an existing file', step: step('ws_write', true), saves: 1 },
    { what: 'a ws_write creating a file (no format chosen)', step: step('ws_write', true, [], null), saves: 0 },
    { what: 'a ws_read (not an edit)', step: step('ws_read', true), saves: 0 },
    {
      what: 'an edit the loop guard refused',
      step: step('ws_edit', false, [{ kind: 'loop-guard', text: 'repeated' }]),
      saves: 0,
    },
  ];
  for (const row of rows) {
    it(`${row.what}: ${row.saves ? 'saves the table' : 'saves nothing'}`, async () => {
      const saved: BanditTable[] = [];
      const bandit = new SavingBandit(null, 1, { load: async () => null, save: async (t) => void saved.push(t) });
      bandit.learn('qwen', row.step);
      await bandit.saved();
      expect(saved).toHaveLength(row.saves);
      if (row.saves) expect(saved[0]).toEqual(bandit.toJSON());
    });
  }

  it('saves each step’s table in order, each as it was when that step was learned', async () => {
    const saved: number[] = [];
    const store: BanditStore = {
      load: async () => null,
      // The first save is the slowest: order must still hold.
      save: (t) =>
        new Promise((resolve) =>
          setTimeout(
            () => resolve(void saved.push(t.arms['qwen|javascript']!.search_replace.pulls)),
            saved.length ? 0 : 20,
          ),
        ),
    };
    const bandit = new SavingBandit(null, 1, store);
    for (let i = 0; i < 3; i++) bandit.learn('qwen', step('ws_edit', true));
    await bandit.saved();
    expect(saved).toEqual([1, 2, 3]);
  });

  it('keeps a failed save as saveError, goes on saving, and clears it when a save succeeds', async () => {
    let fail = true;
    const bandit = new SavingBandit(null, 1, {
      load: async () => null,
      save: async () => {
        if (fail) throw new Error('QuotaExceededError');
      },
    });
    bandit.learn('qwen', step('ws_edit', true));
    await bandit.saved();
    expect(bandit.saveError).toBe('QuotaExceededError');
    fail = false;
    bandit.learn('qwen', step('ws_edit', true));
    await bandit.saved();
    expect(bandit.saveError).toBeNull();
  });

  it('starts from the stored table and chooses as the plain bandit does with the same seed', () => {
    const table = tableWith(5);
    const saving = new SavingBandit(table, 7, new MemoryBanditStore());
    const plain = new EditFormatBandit(table, 7);
    expect(saving.rows()).toEqual(plain.rows());
    expect([1, 2, 3].map(() => saving.choose('qwen', 'javascript'))).toEqual(
      [1, 2, 3].map(() => plain.choose('qwen', 'javascript')),
    );
  });
});
