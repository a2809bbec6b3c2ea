/**
 * A recorded session replayed to its full step records, apart from the run on screen: the
 * split view shows two sessions side by side with each step's notes, workspace change and
 * context budget, which only a replay computes (a record keeps raw outputs and hashes). The
 * replay is the session run of run-host.ts with no live model, on a run host of its own, so
 * the run in the run view goes on untouched; the replay approves nothing and learns nothing.
 */
import type { Session } from '../session/record.ts';
import type { ReplayVerdict } from '../session/replay-check.ts';
import { MemoryBanditStore } from './evolve-store.ts';
import type { ReplayedSession, StepRecord } from './protocol.ts';
import { RunHost, type RunServices } from './run-host.ts';
import { RUN_DEFAULTS } from './run-settings.ts';

/** Replays every step of `session` (untrusted: checked again by the run host) and answers once it ended. */
export async function replayRecords(session: Session, services: RunServices = {}): Promise<ReplayedSession> {
  const records: StepRecord[] = [];
  let verdict: ReplayVerdict | null = null;
  let ended: (text: string) => void = () => {};
  const end = new Promise<string>((resolve) => (ended = resolve));
  const host = new RunHost(
    (_runId, event) => {
      if (event.kind === 'step') records.push(event.record);
      else if (event.kind === 'verdict') verdict ??= event.verdict;
      else if (event.kind === 'ended') ended(event.text);
    },
    { ...services, bandits: new MemoryBanditStore() },
  );
  const info = await host.startSession({
    session,
    upTo: session.steps.length,
    model: null,
    settings: { ...RUN_DEFAULTS, paceMs: 0 },
  });
  const endText = await end;
  return { info, records, verdict, endText };
}
