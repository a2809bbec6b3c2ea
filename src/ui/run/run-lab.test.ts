/**
 * RunLab against the real worker host over a MessageChannel, on the recorded starter run:
 * "ACI off" asked once per step, the re-run form filled from the run's own settings, a re-run
 * that finds where a switched-off rung first matters, and one row per reason the re-run waits.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RunConfig } from '../../worker/client.ts';
import { connectInProcess } from '../../worker/in-process.ts';
import { createTemplateSession } from '../../worker/starter-session.ts';
import { RunLab } from './run-lab.svelte.ts';
import { RunState } from './run-state.svelte.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

async function setup() {
  const { client } = connectInProcess(() => createTemplateSession());
  const url = { step: null as number | null };
  const run = new RunState(client, { get: () => url.step, set: (s) => (url.step = s) });
  const lab = new RunLab(client, run);
  cleanups.push(run.connect(), lab.connect(), () => client.dispose());
  const options = await client.runOptions();
  const config: RunConfig = {
    task: { kind: 'template', templateId: 'starter' },
    model: { kind: 'scripted', recordedId: options.recorded[0]!.id },
    settings: { ...options.defaults, paceMs: 0 },
  };
  return { run, lab, config };
}

describe('RunLab', () => {
  it('asks the worker for "ACI off" once per step and keeps the answer', async () => {
    const { run, lab, config } = await setup();
    await run.start(config);
    await expect.poll(() => run.phase).toBe('ended');
    const runId = run.info!.runId;
    const step5 = run.records[4]!.step;
    const asked = lab.loadAciOff(runId, step5);
    expect(lab.aciOffFor(runId, 5)).toEqual({ state: 'loading' });
    await asked;
    const first = lab.aciOffFor(runId, 5);
    expect(first).toMatchObject({ state: 'ready', value: { verdict: 'worse' } });
    await lab.loadAciOff(runId, step5);
    expect(lab.aciOffFor(runId, 5)).toBe(first);
  });

  it('fills the form from the run’s settings and finds where a switched-off rung first matters', async () => {
    const { run, lab, config } = await setup();
    expect(lab.rerunBlocked).toBe('Start a run first.');
    await run.start({ ...config, settings: { ...config.settings, paceMs: 200 } });
    await expect.poll(() => run.records.length).toBeGreaterThan(0);
    expect(lab.rerunBlocked).toBe('The re-run uses the whole run: wait until it has ended (or stop it).');
    await expect.poll(() => run.phase, { timeout: 10_000 }).toBe('ended');
    expect(lab.session?.steps).toHaveLength(7);

    await lab.openRerun();
    expect(lab.fields).toEqual({
      maxToolChars: config.settings.maxToolChars,
      readWindowLines: config.settings.readWindowLines,
      disabledRungs: [],
      loopGuard: true,
    });
    expect(lab.rungs).toMatchObject({ state: 'ready' });
    expect(lab.rerunBlocked).toBeNull();

    lab.setRung('indent', false);
    lab.setRung('indent', false);
    expect(lab.fields?.disabledRungs).toEqual(['indent']);
    // The looser rungs tolerate indentation too, and the note names that drift, not theirs: the same results.
    await lab.rerunNow();
    expect(lab.rerun).toMatchObject({ state: 'ready', value: { checked: 7, total: 7 } });
    const same = lab.rerun;
    expect(same?.state === 'ready' ? same.value.divergence : 'not ready').toBeFalsy();
    // With every rung that tolerates indentation off, step 5's edit no longer lands.
    for (const rung of ['blank-lines', 'quotes-dashes', 'anchors']) lab.setRung(rung, false);
    await lab.rerunNow();
    expect(lab.rerun).toMatchObject({
      state: 'ready',
      value: { checked: 7, total: 7, divergence: { index: 5, tool: 'ws_edit' } },
    });
    for (const rung of ['indent', 'blank-lines', 'quotes-dashes', 'anchors']) lab.setRung(rung, true);
    expect(lab.fields?.disabledRungs).toEqual([]);
  });

  it.each([
    { field: 'maxToolChars', value: 50, reason: '“Result cap” must be a whole number between 100 and 1000000.' },
    { field: 'readWindowLines', value: null, reason: '“Read window” must be a whole number between 1 and 100000.' },
    { field: 'readWindowLines', value: 2.5, reason: '“Read window” must be a whole number between 1 and 100000.' },
  ] as const)('waits while $field is $value', async ({ field, value, reason }) => {
    const { run, lab, config } = await setup();
    await run.start(config);
    await expect.poll(() => run.phase).toBe('ended');
    await lab.openRerun();
    (lab.fields as unknown as Record<string, unknown>)[field] = value;
    expect(lab.rerunBlocked).toBe(reason);
  });
});
