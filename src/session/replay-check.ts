/**
 * Checking a replay against its record, one mechanism for `slm replay` (replay.ts) and for the
 * engine worker's session runs: the recorded approval answers are given again, each replayed
 * step is compared with its record, and the verdict says ✓ reproduced or names the first
 * divergence — a step that differs, or the step the replay ended before.
 */
import { stopText, type Step, type Stop } from '../agent/step.ts';
import { isGatedShellCall } from '../engine/tools/run-command.ts';
import { compareSteps, type Divergence } from './divergence.ts';
import type { RecordedStep, Session } from './record.ts';
import { engineVersion } from './version.ts';

/** How a step replayed from a record compares with it. */
export type StepCheckView = { readonly reproduced: true } | { readonly reproduced: false; readonly divergence: Divergence };

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
  readonly recordedVersion: string;
  readonly replayVersion: string;
  /** The workspace the replay ran in, e.g. `memory (with the JavaScript sandbox)`. */
  readonly backend: string;
  readonly ms: number;
}

/** Why a replay could not begin: its starting workspace could not be seeded (`text` says why). */
export function cannotStartText(text: string): string {
  return `The replay cannot start: ${text}.`;
}

/** The approval hooks for a replay: recorded answers for replayed steps, the person's for live ones. */
export interface ReplayApprovals {
  /** Call from the step gate with the index of the step about to run. */
  at(index: number): void;
  isGated(tool: string, args: unknown): Promise<boolean>;
  /** For a replayed step, the recorded answer (what was denied stays denied); else undefined: ask the person. */
  recordedAnswer(step: number): boolean | undefined;
}

/** Approval hooks that give the recorded answers for the first `upTo` steps. */
export function replayApprovals(recorded: readonly RecordedStep[], upTo: number): ReplayApprovals {
  let current = 0;
  return {
    at: (index) => (current = index),
    // A replayed step goes before the approver exactly when the original asked someone; its answer is the recorded one.
    isGated: async (tool, args) => (current <= upTo ? recorded[current - 1]?.approval !== undefined : isGatedShellCall(tool, args)),
    recordedAnswer: (step) => (step <= upTo ? recorded[step - 1]?.approval !== 'denied' : undefined),
  };
}

/** Compares each replayed step with its record and gives the verdict once the replayed part is over. */
export class ReplayChecker {
  readonly #checks: StepCheckView[] = [];
  readonly #t0 = performance.now();
  #given = false;

  private constructor(
    private readonly recorded: readonly RecordedStep[],
    readonly upTo: number,
    private readonly versions: { readonly recorded: string; readonly replay: string },
    private readonly backend: string,
    private readonly runsCommands: boolean,
  ) {}

  /** `backend` names the replay's workspace for people; `runsCommands` says whether it can run a command at all. */
  static async create(session: Session, upTo: number, backend: string, runsCommands: boolean): Promise<ReplayChecker> {
    return new ReplayChecker(session.steps, upTo, { recorded: session.engineVersion, replay: await engineVersion() }, backend, runsCommands);
  }

  /** The check of a step within the replayed part; undefined for a live step. */
  check(actual: RecordedStep, step: Step): StepCheckView | undefined {
    const expected = this.recorded[step.index - 1];
    if (step.index > this.upTo || !expected) return undefined;
    const divergence = compareSteps(step.index, expected, actual, step, this.#versionNote(), this.runsCommands);
    const view: StepCheckView = divergence ? { reproduced: false, divergence } : { reproduced: true };
    this.#checks.push(view);
    return view;
  }

  /** True once every step of the replayed part has been checked. */
  get complete(): boolean {
    return this.#checks.length >= this.upTo;
  }

  /** The verdict (once): after the last replayed step, or when the run ended before it with `stop`; null once given. */
  verdict(stop?: Stop): ReplayVerdict | null {
    if (this.#given) return null;
    this.#given = true;
    return this.outcome(stop);
  }

  /** The verdict as the checks stand: the first divergence, or the missing step when the run ended (with `stop`) before the last one. */
  outcome(stop?: Stop): ReplayVerdict {
    const diverged = this.#checks.flatMap((c) => (c.reproduced ? [] : [c.divergence]));
    let divergence: Divergence | undefined = diverged[0];
    if (!divergence && !this.complete) {
      const n = this.#checks.length;
      divergence = { index: n + 1, kind: 'missing', why: `The replay ended after ${n} of the ${this.upTo} recorded steps (${stop ? stopText(stop) : 'it stopped'}).${this.#versionNote()}` };
    }
    return this.#result(divergence, Math.max(0, diverged.length - 1));
  }

  /** The verdict on a replay whose workspace could not be seeded (`text` says why): nothing was replayed. */
  cannotStart(text: string): ReplayVerdict {
    return this.#result({ index: 0, kind: 'start', why: cannotStartText(text) }, 0);
  }

  #result(divergence: Divergence | undefined, laterDivergences: number): ReplayVerdict {
    return {
      ok: !divergence,
      checked: this.#checks.length,
      expected: this.upTo,
      ...(divergence && { divergence }),
      laterDivergences,
      recordedVersion: this.versions.recorded,
      replayVersion: this.versions.replay,
      backend: this.backend,
      ms: performance.now() - this.#t0,
    };
  }

  #versionNote(): string {
    const { recorded, replay } = this.versions;
    return recorded === replay ? '' : ` The session was recorded with engine ${recorded} and this is ${replay}, so a changed engine can explain it.`;
  }
}
