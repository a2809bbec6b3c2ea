/**
 * Checking a replay against its record, one mechanism for `slm replay` (replay.ts) and for the
 * engine worker's session runs: a replay approves nothing (a recorded denial is given again, a
 * recorded approval is history), each replayed step is compared with its record (identical,
 * equivalent or diverged: divergence.ts), and the verdict says ✓ reproduced — with how many
 * steps were equivalent and on which backends — or names the first divergence: a step that
 * differs, a gated step that could not run without an approval, or the step the replay ended
 * before.
 */
import { isGatedCall, type ApprovalAnswer, type ApprovalRequest, type GateCheck } from '../agent/approvals.ts';
import { stopText, type Step, type Stop } from '../agent/step.ts';
import type { EngineSettings } from '../engine/settings.ts';
import { compareSteps, settingChanges, type Divergence, type SettingChange } from './divergence.ts';
import type { Equivalence } from './equivalence.ts';
import type { RecordedStep, Session } from './record.ts';
import { engineVersion } from './version.ts';

/** How a step replayed from a record compares with it. */
export type StepCheckView =
  | { readonly reproduced: true; readonly equivalent?: Equivalence }
  | { readonly reproduced: false; readonly divergence: Divergence };

/** The verdict on the replayed part of a run. */
export interface ReplayVerdict {
  /** True when every replayed step reproduced. */
  readonly ok: boolean;
  /** Steps replayed and compared. */
  readonly checked: number;
  /** Steps the run was asked to replay. */
  readonly expected: number;
  /** The first divergence, with why (also a missing step, or a start that failed). */
  readonly divergence?: Divergence;
  /** Steps after the first divergence that differ too (usually its consequences). */
  readonly laterDivergences: number;
  /** Steps that reproduced as equivalent rather than identical (a command's output differs only where backends differ). */
  readonly equivalent: number;
  /** Where the equivalent steps were recorded and replayed, each pair once: `memory → memory with Node v22.1.0`. */
  readonly equivalentOn: readonly string[];
  readonly recordedVersion: string;
  readonly replayVersion: string;
  /** The workspace the replay ran in, e.g. `memory (with the JavaScript sandbox)`. */
  readonly backend: string;
  readonly ms: number;
  /** What bounded the replay, when a bound applied: the record's timeouts clamped, the whole replay's deadline (replay-bounds.ts). */
  readonly bounds?: string;
}

/** Why a replay could not begin: its starting workspace could not be seeded (`text` says why). */
export function cannotStartText(text: string): string {
  return `The replay cannot start: ${text}.`;
}

/** The approval hooks for a replay: the replay's own answers for replayed steps, the person's for live ones. */
export interface ReplayApprovals {
  /** Call from the step gate with the index of the step about to run. */
  at(index: number): void;
  readonly isGated: GateCheck;
  /** For a replayed step, the replay's answer (never a recorded approval); else undefined: ask the person. */
  answer(request: ApprovalRequest): ApprovalAnswer | undefined;
}

/**
 * Approval hooks for a replay of the first `upTo` recorded steps. A recorded approval is
 * history, never an approval: a replayed step the policy gates runs only when a person
 * approved that very step here (`approvedHere`, from an "Approve and run" press), and is
 * answered 'unapproved' otherwise. A recorded denial is given again (not running is safe).
 * Replayed steps run in auto mode, so a file change approved in ask mode runs unasked, as every
 * file change does in a replay's own fresh workspace. Steps after `upTo` are live: the policy
 * gates them and the person answers.
 */
export function replayApprovals(
  recorded: readonly RecordedStep[],
  upTo: number,
  approvedHere: ReadonlySet<number> = new Set(),
): ReplayApprovals {
  let current = 0;
  const deniedOnRecord = (step: number) =>
    step <= upTo && (recorded[step - 1]?.approval === 'denied' || recorded[step - 1]?.approval === 'unasked');
  return {
    at: (index) => (current = index),
    isGated: async (tool, args, settings) => deniedOnRecord(current) || isGatedCall(tool, args, settings),
    answer: (request) => {
      if (request.step > upTo) return undefined;
      if (deniedOnRecord(request.step)) return recorded[request.step - 1]!.approval === 'unasked' ? 'unasked' : false;
      return approvedHere.has(request.step) ? true : 'unapproved';
    },
  };
}

/** Compares each replayed step with its record and gives the verdict once the replayed part is over. */
export class ReplayChecker {
  readonly #checks: StepCheckView[] = [];
  /** The recorded result texts of steps that reproduced as equivalent, by step: what the model saw. */
  readonly #seen = new Map<number, string>();
  readonly #t0 = performance.now();
  #given = false;

  private constructor(
    private readonly recorded: readonly RecordedStep[],
    readonly upTo: number,
    private readonly versions: { readonly recorded: string; readonly replay: string },
    private readonly backend: string,
    private readonly runsCommands: boolean,
    private readonly changes: readonly SettingChange[],
  ) {}

  /**
   * `backend` names the replay's workspace for people; `runsCommands` says whether it can run a
   * command at all; `settings`, the engine settings the replay runs with when they are not the
   * record's (a what-if re-run), so a difference they explain is said to be theirs.
   */
  static async create(
    session: Session,
    upTo: number,
    backend: string,
    runsCommands: boolean,
    settings?: EngineSettings,
  ): Promise<ReplayChecker> {
    return new ReplayChecker(
      session.steps,
      upTo,
      { recorded: session.engineVersion, replay: await engineVersion() },
      backend,
      runsCommands,
      settings ? settingChanges({ ...session.settings.engine }, { ...settings }) : [],
    );
  }

  /** The check of a step within the replayed part; undefined for a live step. */
  async check(actual: RecordedStep, step: Step): Promise<StepCheckView | undefined> {
    const expected = this.recorded[step.index - 1];
    if (step.index > this.upTo || !expected) return undefined;
    const compared = await compareSteps(step.index, expected, actual, step, {
      versions: this.versions,
      settingChanges: this.changes,
      runsCommands: this.runsCommands,
    });
    const view: StepCheckView =
      compared.level === 'identical'
        ? { reproduced: true }
        : compared.level === 'equivalent'
          ? { reproduced: true, equivalent: compared.equivalence }
          : {
              reproduced: false,
              divergence: step.approval === 'unapproved' ? approvalDivergence(step, expected) : compared.divergence,
            };
    this.#checks.push(view);
    if (compared.level === 'equivalent' && expected.resultText !== undefined)
      this.#seen.set(step.index, expected.resultText);
    return view;
  }

  /**
   * The text a later prompt carries for step `index`'s result: the record's, when the step was
   * equivalent (its output differs only where backends differ, and the model saw the recorded
   * one), so an equivalent step cascades nothing; undefined for every other step (the replay's
   * own text, which is the record's when identical). A link keeps no result texts, so there the
   * replay's own text goes forward.
   */
  seen(index: number): string | undefined {
    return this.#seen.get(index);
  }

  /** True once every step of the replayed part has been checked. */
  get complete(): boolean {
    return this.#checks.length >= this.upTo;
  }

  /** The verdict (once): after the last replayed step, or when the run ended before it with `stop` (or for the reason given); null once given. */
  verdict(stop?: Stop | string): ReplayVerdict | null {
    if (this.#given) return null;
    this.#given = true;
    return this.outcome(stop);
  }

  /** The verdict as the checks stand: the first divergence, or the missing step when the run ended (with `stop`) before the last one. */
  outcome(stop?: Stop | string): ReplayVerdict {
    const diverged = this.#checks.flatMap((c) => (c.reproduced ? [] : [c.divergence]));
    let divergence: Divergence | undefined = diverged[0];
    if (!divergence && !this.complete) {
      const n = this.#checks.length;
      divergence = {
        index: n + 1,
        kind: 'missing',
        why: `The replay ended after ${n} of the ${this.upTo} recorded steps (${stop === undefined ? 'it stopped' : typeof stop === 'string' ? stop : stopText(stop)}).${this.#versionNote()}`,
      };
    }
    return this.#result(divergence, Math.max(0, diverged.length - 1));
  }

  /** The verdict on a replay whose workspace could not be seeded (`text` says why): nothing was replayed. */
  cannotStart(text: string): ReplayVerdict {
    return this.#result({ index: 0, kind: 'start', why: cannotStartText(text) }, 0);
  }

  #result(divergence: Divergence | undefined, laterDivergences: number): ReplayVerdict {
    const equivalent = this.#checks.flatMap((c) => (c.reproduced && c.equivalent ? [c.equivalent] : []));
    return {
      ok: !divergence,
      checked: this.#checks.length,
      expected: this.upTo,
      ...(divergence && { divergence }),
      laterDivergences,
      equivalent: equivalent.length,
      equivalentOn: [...new Set(equivalent.map((e) => `${e.recordedOn} → ${e.replayedOn}`))],
      recordedVersion: this.versions.recorded,
      replayVersion: this.versions.replay,
      backend: this.backend,
      ms: performance.now() - this.#t0,
    };
  }

  #versionNote(): string {
    const { recorded, replay } = this.versions;
    return recorded === replay
      ? ''
      : ` The session was recorded with engine ${recorded} and this is ${replay}, so a changed engine can explain it.`;
  }
}

/**
 * Why a replayed gated step does not reproduce: nobody here approved it, so it did not run. Said
 * as what it is, not as a changed result, with what would reproduce it.
 */
export function approvalDivergence(step: Step, expected: RecordedStep): Divergence {
  const tool = step.call ? ` (${step.call.tool})` : '';
  const history =
    expected.approval === 'approved'
      ? 'When the session was recorded, a person approved this gated command; that approval is history, not an approval here'
      : 'This command is gated: it runs only once a person approves it';
  return {
    index: step.index,
    kind: 'approval',
    why:
      `Step ${step.index}${tool} cannot be reproduced without an approval. ${history}, and a replay approves nothing, so the command did not run and its recorded result was not reproduced. ` +
      'To check it, a person must approve this one step where it is replayed ("Approve and run" on the step in the playground).',
  };
}
