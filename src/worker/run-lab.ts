/**
 * What-ifs on a run, in the engine worker. "ACI off" answers, for one step, what a naive
 * harness would have done with the same raw output (session/aci-off.ts, over the workspace
 * captured before the step). A settings re-run feeds the run's recorded raw outputs through a
 * fresh engine with other ACI settings — the session replay, with the settings changed — and
 * stops at the first step whose result differs, which is where the settings mattered.
 */
import { RUNG_NAMES, RUNG_ORDER } from '../engine/ladder/ladder.ts';
import type { Session } from '../session/record.ts';
import { replaySession } from '../session/replay.ts';
import { checkSession } from '../session/validate.ts';
import type { AciSettings, RerunReport, RungInfo } from './protocol.ts';
import { openSessionWorkspace } from './session-run.ts';

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
 * memory workspace, up to the first step whose result or workspace differs. The session is
 * untrusted data from the page, and the changed settings must pass the record's own bounds:
 * both are checked by the record schema, and a refusal is an Error saying why.
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
  const session = changed.session;

  // The workspace a replay of this record gets (with the JavaScript sandbox when the run had
  // one), so a step differs because of the settings, not because commands ran elsewhere.
  const opened = await openSessionWorkspace(session);
  if (!opened.ok) throw new Error(opened.text);
  const stop = new AbortController();
  const report = await replaySession(session, {
    // replaySession seeds the workspace again with the same files: it is already in that state.
    workspace: opened.engine.workspace,
    engine: () => opened.engine,
    signal: stop.signal,
    // The first difference is the answer; what follows from it is not.
    onCheck: (check) => {
      if (check.divergence) stop.abort();
    },
  });

  const d = report.divergence;
  // The loop may have begun the step after the divergence before the abort reached it: it does not count.
  const base = {
    checked: d ? Math.max(d.index, 0) : report.steps.length,
    total: recorded.steps.length,
    backend: opened.backend,
    ms: Math.round(report.ms),
  };
  if (!d) return base;
  const step = report.steps.find((c) => c.index === d.index);
  return {
    ...base,
    divergence: {
      ...d,
      ...(step?.tool !== undefined && { tool: step.tool }),
      before: firstLines(recorded.steps[d.index - 1]?.resultText ?? ''),
      after: firstLines(step?.resultText ?? ''),
    },
  };
}
