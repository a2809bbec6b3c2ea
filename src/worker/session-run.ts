/**
 * Runs from a recorded session, in the engine worker. One mechanism serves three uses: opening a
 * link or a file (replay every recorded step and check it), restoring a run a reload cut short,
 * and "continue from here" (replay the first steps to rebuild the engine's state — seen files,
 * checkpoints, the loop guard, the context — then let a live model go on).
 *
 * The replayed raw outputs go through the loop again, in a fresh workspace seeded from the
 * record, with the record's engine and agent settings; each step's result and workspace hashes
 * are compared with the record by the same `ReplayChecker` the CLI's replay uses
 * (session/replay-check.ts).
 */
import { ModelError, type ChatMessage, type CompleteOptions, type Completion, type Model } from '../agent/model.ts';
import { ScriptedModel } from '../agent/models/scripted.ts';
import { recordedRunById } from '../agent/scripts/starter-run.ts';
import { stopText, type Stop } from '../agent/step.ts';
import type { Engine } from '../engine/engine.ts';
import { MAX_SESSION_FILE_BYTES, parseSessionFile } from '../session/share-codec.ts';
import { refuseRecord, type SessionCheck } from '../session/validate.ts';
import { RECORD_LIMITS, type Session } from '../session/record.ts';
import { harnessEngine } from '../session/naive-engine.ts';
import { recordedOutside } from '../session/recorded-outside.ts';
import { clampTimeouts } from '../session/replay-bounds.ts';
import { cannotStartText } from '../session/replay-check.ts';
import { seedStart } from '../session/start.ts';
import { sandboxRunner } from '../workspace/memory/js-sandbox.ts';
import { MemoryWorkspace } from '../workspace/memory/memory-workspace.ts';
import { needsRunner } from '../session/needs-runner.ts';

export { needsRunner };

export type SessionWorkspace =
  | {
      readonly ok: true;
      readonly engine: Engine;
      readonly backend: string;
      readonly runsCommands: boolean;
      /** The record's timeouts brought down to this build's defaults, one phrase each (session/replay-bounds.ts). */
      readonly clamped: readonly string[];
    }
  | { readonly ok: false; readonly text: string };

/** An empty memory workspace of the kind replaying `session` needs, named for people. */
export function freshSessionWorkspace(session: Session): {
  readonly ws: MemoryWorkspace;
  readonly backend: string;
  readonly runsCommands: boolean;
} {
  const runner = needsRunner(session);
  return {
    ws: new MemoryWorkspace(undefined, undefined, runner ? sandboxRunner() : undefined),
    backend: runner ? 'memory (with the JavaScript sandbox)' : 'memory (no process runner)',
    runsCommands: runner,
  };
}

/**
 * A fresh memory workspace seeded from the record, and an engine with the record's settings
 * (its timeouts clamped to this build's defaults, as `slm replay` clamps them) and harness; the
 * web requests the record kept are answered from it, so no replayed step fetches.
 */
export async function openSessionWorkspace(session: Session): Promise<SessionWorkspace> {
  const { ws, backend, runsCommands } = freshSessionWorkspace(session);
  const seeded = await seedStart(ws, session.workspace);
  if (!seeded.ok) return { ok: false, text: cannotStartText(seeded.text) };
  const bounded = clampTimeouts(session.settings.engine);
  // Web requests and MCP calls are answered from the record: opening a session reaches nothing outside.
  const engine = harnessEngine(ws, bounded.settings, session.harness, recordedOutside(session.steps));
  return { ok: true, engine, backend, runsCommands, clamped: bounded.clamped };
}

/**
 * The whole replay's deadline in a session run (`REPLAY_DEADLINE_MS`, as `slm replay` has):
 * it counts while the replay runs, not while a person holds it paused, and calls `expire` (which
 * stops the run) when spent. `end` stops it for good (the replayed part is over).
 */
export class ReplayDeadline {
  #left: number;
  #since = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #over = false;
  /** True once the deadline stopped the run. */
  hit = false;

  constructor(
    readonly ms: number,
    private readonly expire: () => void,
  ) {
    this.#left = ms;
  }

  /** Counts from now on (a no-op while counting, or once ended). */
  resume(): void {
    if (this.#over || this.#timer !== undefined) return;
    this.#since = performance.now();
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined;
        this.#over = true;
        this.hit = true;
        this.expire();
      },
      Math.max(0, this.#left),
    );
  }

  /** Stops counting until `resume`, keeping what is left. */
  suspend(): void {
    if (this.#timer === undefined) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#left -= performance.now() - this.#since;
  }

  end(): void {
    this.suspend();
    this.#over = true;
  }
}

/**
 * The model of a session run: the recorded raw outputs first, then the live model. Replay only
 * (no live model): past the recorded outputs the run ends with a message that says where to go.
 */
export class PrefixModel implements Model {
  readonly id: string;
  readonly family: string;
  readonly contextWindow?: number;
  #next = 0;

  constructor(
    private readonly outputs: readonly string[],
    private readonly live: Model | null,
    family: string,
  ) {
    this.id = live?.id ?? 'scripted:replay';
    this.family = live?.family ?? family;
    if (live?.contextWindow !== undefined) this.contextWindow = live.contextWindow;
  }

  complete(messages: readonly ChatMessage[], opts: CompleteOptions): Promise<Completion> {
    if (opts.signal?.aborted) return Promise.reject(new ModelError('aborted', 'The model request was stopped.'));
    const text = this.outputs[this.#next];
    if (text !== undefined) {
      this.#next++;
      opts.onToken?.(text);
      return Promise.resolve({ text });
    }
    if (this.live) return this.live.complete(messages, opts);
    const n = this.outputs.length;
    return Promise.reject(
      new ModelError(
        'exhausted',
        `the recording ends here: its ${n} recorded step${n === 1 ? ' was' : 's were'} replayed. To go on, pick a step and press "Continue from here".`,
      ),
    );
  }
}

/**
 * The scripted model continuing a record it made: its outputs after the `upTo` already replayed.
 * Other scripts do not fit another run's steps, so they are refused with what to pick instead.
 */
export function scriptedContinuation(recordedId: string, session: Session, upTo: number, contextWindow: number): Model {
  const recorded = recordedRunById(recordedId);
  if (!recorded || session.model.id !== `scripted:${recorded.id}`) {
    throw new Error(
      `The scripted model has recorded turns only for its own run, not for this session (recorded with ${session.model.id}); to continue it, pick llama.cpp or WebLLM in this tab, or an endpoint, on the start screen.`,
    );
  }
  return new ScriptedModel(recorded.outputs.slice(upTo), { name: recorded.id, contextWindow });
}

/**
 * Why a run ended, for people: a replay-only run that used up a recording which stops without
 * done (a run cut short) has not failed, it has reached the end of what was recorded.
 */
export function endText(stop: Stop, replay: { readonly continues: boolean } | undefined): string {
  if (replay && !replay.continues && stop.kind === 'model-error' && stop.code === 'exhausted') return stop.message;
  return stopText(stop);
}

/** How many steps a continuation may take in all: the replayed ones plus the live budget, within the record's bound. */
export function continuationSteps(upTo: number, liveSteps: number): number {
  return Math.min(RECORD_LIMITS.steps, upTo + liveSteps);
}

/** Checks a session file the page handed over; a file over the cap is refused before it is read. */
export async function openSessionFile(file: Blob): Promise<SessionCheck> {
  if (file.size > MAX_SESSION_FILE_BYTES) {
    const n = (x: number) => x.toLocaleString('en-US');
    return refuseRecord(
      'too-large',
      `The file is ${n(file.size)} bytes, more than the ${n(MAX_SESSION_FILE_BYTES)} a session file may have, so it was not read. Is it a session file (.session.json)?`,
    );
  }
  return parseSessionFile(await file.text());
}
