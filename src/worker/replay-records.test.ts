/**
 * The split view's replay over the worker protocol: a bundled session comes back as one step
 * record per recorded step, each checked against the record, with its notes, change and budget;
 * and the run on screen is not stopped by it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { STARTER_RUN } from '../agent/scripts/starter-run.ts';
import { useNodeWasm } from '../platform/node-wasm.ts';
import type { Session } from '../session/record.ts';
import { connectRunClient } from '../../tests/support/run-client.ts';
import { RUN_DEFAULTS } from './run-settings.ts';

useNodeWasm();

/** A client joined to a fresh host (the shared in-process one). */
const connect = () => connectRunClient().client;

const example = (name: string): Session =>
  JSON.parse(readFileSync(new URL(`../../examples/${name}.session.json`, import.meta.url), 'utf8')) as Session;

describe('replay-records', () => {
  it.each([
    ['drifted-edit', 3],
    ['thirty-steps', 30],
  ])('replays every step of %s and checks each against its record', async (name, steps) => {
    const client = connect();
    const session = example(name);
    const replayed = await client.replayRecords(session);
    expect(replayed.records.map((r) => r.step.index)).toEqual(Array.from({ length: steps }, (_, i) => i + 1));
    // Every step is checked; those before done ran no command, so they reproduce on any backend.
    expect(replayed.records.every((r) => r.check !== undefined)).toBe(true);
    expect(replayed.records.slice(0, -1).every((r) => r.check?.reproduced)).toBe(true);
    expect(replayed.verdict?.ok).toBe(replayed.records.every((r) => r.check?.reproduced));
    expect(replayed.info.model.scripted).toBe(true);
    expect(replayed.records.map((r) => r.step.call?.tool ?? null)).toEqual(
      session.steps.map((s) => s.call?.tool ?? null),
    );
  });

  it('shows the edit a drifted step made and its ladder rung', async () => {
    const replayed = await connect().replayRecords(example('drifted-edit'));
    const edit = replayed.records[1]!;
    expect(edit.changes.map((c) => c.path)).toEqual(['src/strings.js']);
    expect(edit.step.result?.notes.some((n) => n.kind === 'rung')).toBe(true);
    expect(edit.step.budget.window).toBeGreaterThan(0);
  });

  it('refuses a record that fails the schema, with the reason', async () => {
    await expect(connect().replayRecords({ ...example('drifted-edit'), v: 9 } as unknown as Session)).rejects.toThrow(
      /version|v/i,
    );
  });

  it('leaves the run on screen running', async () => {
    const c = connectRunClient();
    const info = await c.client.startRun({
      task: { kind: 'template', templateId: 'starter' },
      model: { kind: 'scripted', recordedId: STARTER_RUN.id },
      settings: { ...RUN_DEFAULTS, paceMs: 0 },
      paused: true,
    });
    await c.client.replayRecords(example('drifted-edit'));
    await c.client.controlRun(info.runId, 'resume');
    await expect.poll(() => c.stop(info.runId), { timeout: 30_000 }).toMatchObject({ stop: { kind: 'done' } });
    // The replay sent no run event of its own: every step the page got is the run's.
    expect(c.events.filter((e) => e.event.kind === 'step')).toHaveLength(STARTER_RUN.outputs.length);
  });
});
