/**
 * A run's controls, as the loop meets them: the step gate (Run, Pause, Step, and the pace
 * between scripted steps), the AbortSignal (Stop), and approval questions waiting for a
 * person. The loop awaits `gate(i)` before step i; a paused gate opens for one step on Step
 * and for good on Resume. Stop aborts the signal, opens the gate and declines every question
 * still open, so nothing waits forever.
 */
import type { ApprovalRequest } from '../agent/approvals.ts';
import type { ApprovalAsk, RunAction, RunEvent } from './protocol.ts';
import { gatedShellWrites } from '../engine/tools/shell-writes.ts';

export interface ControllerOptions {
  /** Start paused before step 1. */
  readonly paused: boolean;
  /** Wait this long before each step after the first while running (scripted pacing). */
  readonly paceMs: number;
  /** No pause before steps up to this one (steps replayed from a record run at full speed). */
  readonly paceAfter?: number;
  /** Where phase changes and approval questions go (to the page). */
  readonly emit: (event: RunEvent) => void;
}

export class RunController {
  readonly #abort = new AbortController();
  readonly #opts: ControllerOptions;
  #paused: boolean;
  /** Steps the gate lets through while paused (set by Step). */
  #steps = 0;
  #wake: (() => void) | null = null;
  #nextAsk = 1;
  readonly #asks = new Map<number, { ask: ApprovalAsk; answer: (approved: boolean) => void }>();

  constructor(opts: ControllerOptions) {
    this.#opts = opts;
    this.#paused = opts.paused;
  }

  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  get paused(): boolean {
    return this.#paused;
  }

  /** Awaited by the loop before step `index`. */
  async gate(index: number): Promise<void> {
    if (!this.#paused && index > 1 + (this.#opts.paceAfter ?? 0) && this.#opts.paceMs > 0)
      await this.#sleep(this.#opts.paceMs);
    while (this.#paused && this.#steps === 0 && !this.signal.aborted) {
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
    if (this.#steps > 0) this.#steps--;
  }

  apply(action: RunAction): void {
    switch (action) {
      case 'pause':
        this.#setPaused(true);
        return;
      case 'resume':
        this.#setPaused(false);
        return;
      case 'step':
        // Running: stop after the step in progress. Paused: let exactly one step through.
        if (this.#paused) this.#steps++;
        this.#setPaused(true);
        this.#wakeUp();
        return;
      case 'stop':
        this.stop();
        return;
      default: {
        const never: never = action;
        throw new TypeError(`run controller: unknown action ${JSON.stringify(never)}`);
      }
    }
  }

  /** Aborts the run: the gate opens, the model request is cancelled, open questions are declined. */
  stop(): void {
    if (this.signal.aborted) return;
    this.#abort.abort();
    for (const id of [...this.#asks.keys()]) this.answer(id, false);
    this.#wakeUp();
  }

  /** The loop's approver: asks the page (with the paths a gated command would write) and waits for `answer` (or Stop, which declines). */
  async approve(request: ApprovalRequest): Promise<boolean> {
    if (this.signal.aborted) return false;
    const writes = request.reason === 'gated-shell' ? await gatedShellWrites(request.tool, request.args) : undefined;
    if (this.signal.aborted) return false;
    const ask: ApprovalAsk = { ...request, id: this.#nextAsk++, ...(writes && { writes }) };
    return new Promise<boolean>((resolve) => {
      this.#asks.set(ask.id, { ask, answer: resolve });
      this.#opts.emit({ kind: 'approval', ask });
    });
  }

  /** A person's answer; false when the question is no longer open (answered twice, or withdrawn by Stop). */
  answer(askId: number, approved: boolean): boolean {
    const open = this.#asks.get(askId);
    if (!open) return false;
    this.#asks.delete(askId);
    open.answer(approved);
    this.#opts.emit({ kind: 'approval', ask: null });
    return true;
  }

  #setPaused(paused: boolean): void {
    const changed = this.#paused !== paused;
    this.#paused = paused;
    if (!paused) this.#wakeUp();
    if (changed) this.#opts.emit({ kind: 'phase', phase: paused ? 'paused' : 'running' });
  }

  #wakeUp(): void {
    const wake = this.#wake;
    this.#wake = null;
    wake?.();
  }

  /** Sleeps, but wakes early on Stop. */
  #sleep(ms: number): Promise<void> {
    const signal = this.signal;
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
    });
  }
}
