/**
 * The what-ifs on a run, over the worker protocol in one process, on the recorded starter run
 * as the page holds it (the session header event plus each step's record entry): "ACI off"
 * for single steps, and re-runs under other ACI settings — one row per setting, each with the
 * step where it first changes what the model saw, or none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STARTER_RUN } from '../agent/scripts/starter-run.ts';
import type { AciSettings, EngineClient, RunConfig, Session, SessionHeader, StepRecord } from './client.ts';
import { connectInProcess } from './in-process.ts';
import { RUN_DEFAULTS } from './run-settings.ts';
import { createTemplateSession } from './starter-session.ts';

const CONFIG: RunConfig = {
  task: { kind: 'template', templateId: 'starter' },
  model: { kind: 'scripted', recordedId: STARTER_RUN.id },
  settings: { ...RUN_DEFAULTS, paceMs: 0 },
};

let client: EngineClient;
let runId: number;
let records: StepRecord[];
let session: Session;

beforeAll(async () => {
  client = connectInProcess(() => createTemplateSession()).client;
  let header: SessionHeader | null = null;
  const steps: StepRecord[] = [];
  let done!: () => void;
  const ended = new Promise<void>((resolve) => (done = resolve));
  client.onRunEvent((_id, event) => {
    if (event.kind === 'session') header = event.header;
    if (event.kind === 'step') steps.push(event.record);
    if (event.kind === 'ended') done();
  });
  runId = (await client.startRun(CONFIG)).runId;
  await ended;
  records = steps;
  session = { ...header!, steps: steps.map((r) => r.recorded!) };
});
afterAll(() => client.dispose());

const step = (index: number) => records.find((r) => r.step.index === index)!.step;

/** The run's own ACI settings. */
const RECORDED: AciSettings = {
  maxToolChars: RUN_DEFAULTS.maxToolChars,
  readWindowLines: RUN_DEFAULTS.readWindowLines,
  disabledRungs: [],
  loopGuard: true,
};

describe('ACI off', () => {
  it.each([
    {
      index: 5,
      verdict: 'worse',
      why: /^Exact match only: old_str's indentation differs from the file's, so the edit does not land/,
      text: /^Error: old_str not found in src\/strings\.js/,
    },
    {
      index: 4,
      verdict: 'worse',
      why: /^The prose is taken as the final answer: the run ends here/,
      text: /^\(no JSON in the reply/,
    },
    { index: 1, verdict: 'same', why: /^The command runs the same way/, text: /^\$ npm test\n/ },
    { index: 7, verdict: 'same', why: /^Both end the run here\.$/, text: /^Run ended: / },
  ])('step $index: $verdict', async ({ index, verdict, why, text }) => {
    const off = await client.aciOff(runId, step(index));
    expect(off.verdict).toBe(verdict);
    expect(off.why).toMatch(why);
    expect(off.text).toMatch(text);
  });

  it('works on the workspace before the step: the naive edit of step 5 would have changed nothing', async () => {
    const off = await client.aciOff(runId, step(5));
    expect(off.changes).toEqual([]);
  });

  it('a step of a run no longer kept is an error that says so', async () => {
    await expect(client.aciOff(runId + 1, step(1))).rejects.toThrow(`Run ${runId + 1} is no longer kept`);
  });
});

describe('settings re-run', () => {
  it('offers the ladder rungs but exact', async () => {
    expect((await client.ladderRungs()).map((r) => r.id)).toEqual([
      'trailing-ws',
      'indent',
      'blank-lines',
      'quotes-dashes',
      'anchors',
    ]);
  });

  it('the recorded settings reproduce every step', async () => {
    const report = await client.rerunSettings(session, RECORDED);
    expect(report).toMatchObject({ checked: 7, total: 7, backend: 'memory (with the JavaScript sandbox)' });
    expect(report.divergence).toBeUndefined();
  });

  it.each([
    // Every rung that tolerates the drifted indentation off: the edit no longer lands.
    {
      name: 'every rung that tolerates indentation off',
      aci: { disabledRungs: ['indent', 'blank-lines', 'quotes-dashes', 'anchors'] },
      at: 5,
      tool: 'ws_edit',
      after: /^old_str not found in src\/strings\.js/,
    },
    {
      name: 'every rung off: exact matching only',
      aci: { disabledRungs: ['trailing-ws', 'indent', 'blank-lines', 'quotes-dashes', 'anchors'] },
      at: 5,
      tool: 'ws_edit',
      after: /^old_str not found in src\/strings\.js — no exact match/,
    },
    {
      name: 'a read window of 10 lines',
      aci: { readWindowLines: 10 },
      at: 2,
      tool: 'ws_read',
      after: /^\[test\/strings\.test\.js#[0-9a-f]+: lines 1-10 of 28\]/,
    },
    // The read shrinks to fit the cap before the cap would cut it.
    {
      name: 'a result cap of 500 characters',
      aci: { maxToolChars: 500 },
      at: 2,
      tool: 'ws_read',
      after: /^\[test\/strings\.test\.js#[0-9a-f]+: lines 1-4 of 28\]/,
    },
    { name: 'the loop guard off (nothing repeats in this run)', aci: { loopGuard: false }, at: null },
    { name: 'a rung this run never needed', aci: { disabledRungs: ['anchors'] }, at: null },
    // The looser rungs land the same edit and name the same drift (the note is read from the matched lines).
    { name: 'the indentation rung off alone', aci: { disabledRungs: ['indent'] }, at: null },
  ])('$name', async ({ aci, at, tool, after }) => {
    const report = await client.rerunSettings(session, { ...RECORDED, ...aci });
    // Every step is re-run, past the first difference, each beside the run.
    expect(report.checked).toBe(7);
    expect(report.rows.map((r) => r.index)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    if (at === null) {
      expect(report.divergence).toBeUndefined();
      expect(report.rows.filter((r) => r.outcome === 'result' || r.outcome === 'fails')).toEqual([]);
      return;
    }
    expect(report.divergence).toMatchObject({ index: at, kind: 'result', tool, cause: 'settings' });
    expect(report.divergence!.why).toMatch(
      /Cause: the settings differ from the record's: \w+ is .* here and .* in the record\./,
    );
    expect(report.rows[at - 1]!.outcome).toMatch(/^(result|fails)$/);
    expect(report.rows.slice(0, at - 1).every((r) => r.outcome === 'same' || r.outcome === 'notes')).toBe(true);
    expect(report.divergence!.before).toBe(step(at).observation.split('\n').slice(0, 4).join('\n'));
    expect(report.divergence!.after).toMatch(after!);
    expect(report.divergence!.after).not.toBe(report.divergence!.before);
  });

  it('a cap of 200 runs every step and names the cap, with both values, as the cause', async () => {
    const report = await client.rerunSettings(session, { ...RECORDED, maxToolChars: 200 });
    expect(report.checked).toBe(7);
    expect(report.divergence!.why).toContain(
      `Cause: the settings differ from the record's: max_tool_chars is 200 here and ${RECORDED.maxToolChars} in the record.`,
    );
    expect(report.rows.filter((r) => r.outcome !== 'same').length).toBeGreaterThan(1);
  });

  it('settings outside the record’s bounds are refused with the field named', async () => {
    await expect(client.rerunSettings(session, { ...RECORDED, maxToolChars: 5 })).rejects.toThrow(
      /^These settings cannot be used: .*max_tool_chars/s,
    );
  });
});
