/**
 * The edit-format bandit in worker runs, over the protocol (host and client joined in one
 * process): a live run loads the table, has its prompt recommend the format the bandit chose,
 * records that format, and leaves the table updated for the next run; a replay of a recorded
 * session recommends the recorded format and leaves the table as it was.
 */
import { describe, expect, it } from 'vitest';
import { EditFormatBandit, type BanditTable, type EditFormat } from '../agent/evolve.ts';
import { STARTER_RUN } from '../agent/scripts/starter-run.ts';
import type { RunConfig, Session, SessionHeader } from './client.ts';
import { MemoryBanditStore } from './evolve-store.ts';
import { connectRunClient } from '../../tests/support/run-client.ts';
import { RUN_DEFAULTS } from './run-settings.ts';

const SETTINGS = { ...RUN_DEFAULTS, paceMs: 0 };
const SCRIPTED: RunConfig = {
  task: { kind: 'template', templateId: 'starter' },
  model: { kind: 'scripted', recordedId: STARTER_RUN.id },
  settings: SETTINGS,
};
/** The scripted model's family and the starter template's main language: the row these runs use. */
const KEY = { family: 'scripted', language: 'javascript' } as const;
const ADVICE_LINE = /^Preferred edit format: (.*)$/m;

/** The shared in-process client, whose worker keeps the bandit's table in `store`, with the header and advice of a run. */
function connect(store: MemoryBanditStore) {
  const c = connectRunClient({ bandits: store });
  const header = (runId: number): SessionHeader =>
    c.of(runId).flatMap((e) => (e.kind === 'session' ? [e.header] : []))[0]!;
  /** The line of the system prompt that recommends a format, or null when none does. */
  const advice = (runId: number): string | null =>
    ADVICE_LINE.exec(c.steps(runId)[0]!.step.messages[0]!.content)?.[1] ?? null;
  return { ...c, header, advice };
}

/** A table whose row for KEY makes `favoured` all but certain to be chosen. */
function favouring(favoured: EditFormat): BanditTable {
  const b = new EditFormatBandit();
  for (let i = 0; i < 200; i++)
    for (const f of ['search_replace', 'unified_diff', 'whole_file'] as const)
      b.record(KEY.family, KEY.language, f, f === favoured ? 1 : 0, 'exact');
  return b.toJSON();
}

/** The advice the prompt gives for each format, by the tool it names first. */
const ADVICE_TOOL: Record<EditFormat, RegExp> = {
  search_replace: /with ws_edit/,
  unified_diff: /with ws_patch/,
  whole_file: /ws_write the complete new text/,
};

describe('the edit-format bandit in live runs', () => {
  it('a live run records the chosen format, recommends it in the prompt, and saves what its edit taught', async () => {
    const store = new MemoryBanditStore();
    const c = connect(store);
    expect(await c.client.evolveTable()).toEqual({ rows: [] });

    const { runId } = await c.client.startRun(SCRIPTED);
    await c.ended(runId);
    const table = await c.client.evolveTable();
    const format = table.choice!.format;
    expect(table.choice).toEqual({ runId, ...KEY, format });
    expect(c.header(runId).settings.agent.editFormat).toBe(format);
    expect(c.advice(runId)).toMatch(ADVICE_TOOL[format]);

    // The run's one edit: ws_edit, applied on the indentation rung (reward 0.8).
    const row = table.rows.find(
      (r) => r.family === KEY.family && r.language === KEY.language && r.format === 'search_replace',
    );
    expect(row).toMatchObject({ pulls: 1, rungs: { indent: 1 } });
    expect(row!.mean).toBeCloseTo(1.8 / 3, 10);
    expect(table.rows.filter((r) => r.pulls > 0)).toHaveLength(1);
    expect(new EditFormatBandit(await store.load()).rows()).toEqual(table.rows);
  });

  it('the next run starts from the saved table: its prompt recommends the format the table favours', async () => {
    for (const favoured of ['whole_file', 'unified_diff'] as const) {
      const store = new MemoryBanditStore(favouring(favoured));
      const c = connect(store);
      const first = await c.client.startRun(SCRIPTED);
      await c.ended(first.runId);
      const second = await c.client.startRun(SCRIPTED);
      await c.ended(second.runId);

      const table = await c.client.evolveTable();
      expect(table.choice, favoured).toEqual({ runId: second.runId, ...KEY, format: favoured });
      expect(c.header(second.runId).settings.agent.editFormat).toBe(favoured);
      expect(c.advice(second.runId)).toMatch(ADVICE_TOOL[favoured]);
      // Both runs' edits were learned: 200 seeded pulls plus one per run.
      expect(table.rows.find((r) => r.format === 'search_replace')?.pulls).toBe(202);
    }
  });

  it('a replay of a recorded session recommends the recorded format and leaves the table alone', async () => {
    const store = new MemoryBanditStore(favouring('unified_diff'));
    const c = connect(store);
    const live = await c.client.startRun(SCRIPTED);
    await c.ended(live.runId);
    const session: Session = { ...c.header(live.runId), steps: c.steps(live.runId).map((r) => r.recorded!) };
    expect(session.settings.agent.editFormat).toBe('unified_diff');

    // The table now favours another format; the replay must not follow it, nor learn.
    await store.save(favouring('whole_file'));
    const before = await c.client.evolveTable();
    const replay = await c.client.startSessionRun({
      session,
      upTo: session.steps.length,
      model: null,
      settings: SETTINGS,
    });
    await c.ended(replay.runId);
    expect(c.steps(replay.runId).every((r) => r.check?.reproduced)).toBe(true);
    expect(c.header(replay.runId).settings.agent.editFormat).toBe('unified_diff');
    expect(c.advice(replay.runId)).toMatch(ADVICE_TOOL.unified_diff);
    expect(await c.client.evolveTable()).toEqual(before);
    expect(before.choice?.runId).toBe(live.runId);
  });

  it('a table the store cannot read: the run still starts, and the table request says why', async () => {
    const store = new MemoryBanditStore();
    store.load = () => Promise.reject(new Error('the database is locked'));
    const c = connect(store);
    const { runId } = await c.client.startRun(SCRIPTED);
    await c.ended(runId);
    const table = await c.client.evolveTable();
    expect(table.problem).toBe(
      "The edit-format table could not be read (the database is locked); what is shown is the latest run's copy, kept until the page is closed.",
    );
    expect(table.rows.find((r) => r.format === 'search_replace')?.pulls).toBe(1);
  });
});
