/**
 * What-ifs on a run, in the engine worker. "ACI off" answers, for one step, what a naive
 * harness would have done with the same raw output (session/aci-off.ts, over the workspace
 * captured before the step). A settings re-run feeds the run's recorded raw outputs through a
 * fresh engine with other ACI settings — the session replay, with the settings changed — through
 * every step, and says per step whether the result, the notes or the call's success changed.
 */
import { RUNG_NAMES, RUNG_ORDER } from '../engine/ladder/ladder.ts';
import type { RecordedStep, Session } from '../session/record.ts';
import { replaySession, type ReplayReport, type StepCheck } from '../session/replay.ts';
import { checkSession } from '../session/validate.ts';
import type { AciSettings, RerunReport, RerunRow, RungInfo } from './protocol.ts';
import { freshSessionWorkspace, openSessionWorkspace } from './session-run.ts';

/** Lines of each result a re-run's report shows. */
const FIRST_LINES = 4;

/** The rungs a re-run can switch off: all but `exact`, which is what matching is without the ladder. */
export function ladderRungs(): RungInfo[] {
  return RUNG_ORDER.filter((id) => id !== 'exact').map((id) => ({ id, name: RUNG_NAMES[id] }));
}

function firstLines(text: string): string {
  return text.split('\n').slice(0, FIRST_LINES).join('\n');
}

/**
 * Re-runs `value`'s raw outputs with `aci` in place of the recorded ACI settings, in a fresh
 * memory workspace, through every recorded step — past the first difference, so a person sees
 * what the settings do to the whole run — beside a replay with the recorded settings on the same
 * backend (for the notes and outcomes a record does not keep). Each step is the same, gives
 * another result, carries other notes (another rung, say) or is a call that now fails; the first
 * differing step names the settings as its cause. The session is untrusted data from the page,
 * and the changed settings must pass the record's own bounds: both are checked by the record
 * schema, and a refusal is an Error saying why.
 */
export async function rerunWithSettings(value: Session, aci: AciSettings): Promise<RerunReport> {
  const checked = await checkSession(value);
  if (!checked.ok) throw new Error(`The run's record cannot be re-run: ${checked.text}`);
  const recorded = checked.session;
  const engine = {
    ...recorded.settings.engine,
    max_tool_chars: aci.maxToolChars,
    read_window_lines: aci.readWindowLines,
    disabled_rungs: [...aci.disabledRungs],
    loop_guard: aci.loopGuard,
  };
  const changed = await checkSession({ ...recorded, settings: { ...recorded.settings, engine } });
  if (!changed.ok) throw new Error(`These settings cannot be used: ${changed.text}`);

  // The workspace a replay of this record gets (with the JavaScript sandbox when the run had
  // one), so a step differs because of the settings, not because commands ran elsewhere.
  const replayOn = async (session: Session, settings?: Session['settings']['engine']): Promise<ReplayReport> => {
    const opened = await openSessionWorkspace(session);
    if (!opened.ok) throw new Error(opened.text);
    return replaySession(recorded, {
      // replaySession seeds the workspace again with the same files: it is already in that state.
      workspace: opened.engine.workspace,
      engine: () => opened.engine,
      ...(settings && { settings }),
    });
  };
  const t0 = performance.now();
  const before = await replayOn(recorded);
  const report = await replayOn(changed.session, changed.session.settings.engine);
  const rows = report.steps.map((now) => rerunRow(now, before.steps[now.index - 1], recorded.steps[now.index - 1]));
  const base = {
    checked: report.steps.length,
    total: recorded.steps.length,
    rows,
    backend: freshSessionWorkspace(recorded).backend,
    ms: Math.round(performance.now() - t0),
  };
  const d = report.divergence;
  if (!d) return base;
  const step = report.steps.find((c) => c.index === d.index);
  return {
    ...base,
    divergence: {
      ...d,
      ...(step?.tool !== undefined && { tool: step.tool }),
      before: firstLines(recorded.steps[d.index - 1]?.resultText ?? before.steps[d.index - 1]?.resultText ?? ''),
      after: firstLines(step?.resultText ?? ''),
    },
  };
}

/** One step of the re-run beside the run: a call that now fails, another result, other notes, or the same. */
function rerunRow(now: StepCheck, then: StepCheck | undefined, record: RecordedStep | undefined): RerunRow {
  const tool = now.tool !== undefined ? { tool: now.tool } : {};
  const thenText = record?.resultText ?? then?.resultText;
  if (then?.ok && !now.ok) return { index: now.index, ...tool, outcome: 'fails', detail: firstLines(now.resultText) };
  if (now.divergence || (thenText !== undefined && thenText !== now.resultText))
    return { index: now.index, ...tool, outcome: 'result', detail: firstLines(now.resultText) };
  const gone = (then?.notes ?? []).filter((n) => !now.notes.includes(n));
  const added = now.notes.filter((n) => !(then?.notes ?? []).includes(n));
  if (gone.length || added.length)
    return {
      index: now.index,
      ...tool,
      outcome: 'notes',
      detail: [...gone.map((n) => `- ${n}`), ...added.map((n) => `+ ${n}`)].join('\n'),
    };
  return { index: now.index, ...tool, outcome: 'same', detail: '' };
}
