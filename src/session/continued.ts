/**
 * What a continuation's record keeps of the record it continues. "Continue from here" replays a
 * record's first steps and goes on: the new record holds those steps again, so what the old one
 * said of them stays true and is kept — the branch point when the edited step is among them, and
 * the places where a reload cut the run short. A run restored after a reload and continued from
 * its last step adds that step as a cut, so its record says which part was cut short.
 *
 * Pure: the run host puts these notes into the new record's header (worker/run-host.ts); the
 * page asks for the new cut when it resumes a restored run (ui/sessions/sessions.svelte.ts).
 */
import type { Session } from './record.ts';

/** The notes of a record that describe its steps rather than its run: what a continuation keeps. */
export type ContinuedNotes = Pick<Session, 'branch' | 'cutShort'>;

/**
 * The notes a continuation of `session` after its first `upTo` steps keeps: the branch point
 * when the edited step is among them (a branch continued from before its edit goes on with the
 * model there, so it is no branch at that step), and each cut at or before `upTo`.
 */
export function continuedNotes(session: Session, upTo: number): ContinuedNotes {
  const b = session.branch;
  const cuts = (session.cutShort ?? []).filter((n) => n <= upTo);
  return { ...(b && b.step <= upTo && { branch: b }), ...(cuts.length > 0 && { cutShort: cuts }) };
}

/**
 * `session` as a run restored after a reload, about to be continued from its last step: the
 * same record with that step added to its cuts (once: a second reload at the same step adds none).
 */
export function withCutShort(session: Session): Session {
  const at = session.steps.length;
  const cuts = session.cutShort ?? [];
  return cuts.at(-1) === at ? session : { ...session, cutShort: [...cuts, at] };
}

/** What a person reads of a record's cuts: `Cut short by a reload after step 2, and continued from there.` */
export function cutShortText(cuts: readonly number[]): string {
  const steps = cuts.map((n) => `step ${n}`);
  const list = steps.length > 1 ? `${steps.slice(0, -1).join(', ')} and ${steps.at(-1)}` : steps[0];
  return `Cut short by a reload after ${list}, and continued from there: the steps up to ${cuts.length > 1 ? 'each' : 'it'} were saved before the reload, the rest after.`;
}
