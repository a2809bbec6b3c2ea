/**
 * Branching a session: at any step, a person edits the model's raw output and continues from
 * there — with the rest of the recorded outputs, or a live model — as a new session that records
 * where it branched (`branch` in the record: the parent's content hash, where the parent is kept,
 * and the step). The new run replays the parent's steps before the edited one (checked against
 * the record as any replay is), gives the edited text as that step's output, and goes on.
 *
 * Pure: the run itself is the engine worker's (worker/run-host.ts); this file decides what it
 * replays, what it records and whether a record's branch point fits its steps.
 */
import { shortHash } from './hash.ts';
import { RECORD_LIMITS, type BranchPoint, type Session } from './record.ts';

/** What continues after the edited step: the parent's own later outputs, or the live model. */
export type BranchThen = 'record' | 'model';

/** A branch to run: the outputs replayed before the edited step, the edited one, what follows, and the record's branch point. */
export interface BranchPlan {
  /** Recorded steps replayed (and checked) before the edited one: `step - 1`. */
  readonly upTo: number;
  /** The outputs the run gives first: the parent's up to the edited step, then the edited text. */
  readonly outputs: readonly string[];
  /** The parent's outputs after the edited step, when they continue (`then: 'record'`); else null (a live model). */
  readonly rest: readonly string[] | null;
  readonly branch: BranchPoint;
}

export type BranchPlanned =
  { readonly ok: true; readonly plan: BranchPlan } | { readonly ok: false; readonly text: string };

/**
 * The content hash a branch names its parent by: the engine version, task, starting workspace
 * and each step's raw output and hashes — what makes the run, not where it is kept or what it
 * is called (a lesson bundled here and the same lesson saved as a file hash the same).
 */
export function sessionHash(session: Session): Promise<string> {
  return shortHash(
    JSON.stringify([
      session.engineVersion,
      session.task,
      session.workspace,
      session.steps.map((s) => [s.raw, s.resultHash, s.workspaceHash]),
    ]),
  );
}

/**
 * The plan for branching `parent` at `step` with `raw` as the model's output there, or why it
 * cannot be: the step must be one of the parent's, and the text must be new and within a
 * record's bounds. `parentId` names where the parent is kept, when it is.
 */
export async function planBranch(
  parent: Session,
  step: number,
  raw: string,
  then: BranchThen,
  parentId?: string,
): Promise<BranchPlanned> {
  const n = parent.steps.length;
  if (!Number.isInteger(step) || step < 1 || step > n)
    return {
      ok: false,
      text: `Step ${step} is not in this session: it has ${n} recorded step${n === 1 ? '' : 's'}; edit one of them.`,
    };
  if (raw.trim() === '')
    return { ok: false, text: "The edited output is empty: write the model's output for this step (a tool call)." };
  if (raw.length > RECORD_LIMITS.rawChars)
    return {
      ok: false,
      text: `The edited output has ${raw.length} characters, more than the ${RECORD_LIMITS.rawChars} a step may hold; shorten it.`,
    };
  if (raw === parent.steps[step - 1]!.raw)
    return {
      ok: false,
      text: `The output is as recorded: edit it first, or use "Continue from here" to go on from step ${step} unchanged.`,
    };
  const outputs = parent.steps.slice(0, step - 1).map((s) => s.raw);
  return {
    ok: true,
    plan: {
      upTo: step - 1,
      outputs: [...outputs, raw],
      rest: then === 'record' ? parent.steps.slice(step).map((s) => s.raw) : null,
      branch: { parentHash: await sessionHash(parent), ...(parentId !== undefined && { parentId }), step },
    },
  };
}

/**
 * The steps a branch holds short of its edited step, or null when it holds that step (or is no
 * branch). A branch saved before its run reached the edited step (a reload or a stop during the
 * replay before it) is a whole record of what ran: the edited output never ran, so it is not in
 * the record, and the branch point names a step past its last.
 */
export function branchShortOf(session: Session): { readonly held: number; readonly step: number } | null {
  const b = session.branch;
  if (!b || b.step <= session.steps.length) return null;
  return { held: session.steps.length, step: b.step };
}

/** What a person reads of a branch saved before it reached its edited step. */
export function branchShortText(short: { readonly held: number; readonly step: number }): string {
  const held = short.held === 0 ? 'no step' : short.held === 1 ? 'step 1' : `steps 1–${short.held}`;
  return `Saved before it reached its edited step: it holds ${held} of the original, replayed before step ${short.step}, whose edited output never ran and is not in the record. To go on with a model, pick step ${short.held} and press "Continue from here"; to make the edit, branch the original at step ${short.step} again.`;
}

/** One line for people: `Branched from step 3 of a session (a1b2c3d4e5f6), its output there edited.` */
export function branchText(branch: BranchPoint): string {
  return `Branched at step ${branch.step} of another session (${branch.parentHash}): the model's output there was edited, and the run went on from it.`;
}
