/**
 * The scripted model: replays a list of recorded raw outputs, one per step, whatever it is
 * sent. It drives the tests, replays sessions and lets the CLI run without weights. Running
 * out of outputs is a ModelError (`exhausted`), which ends the run with that reason.
 */
import { ModelError, type ChatMessage, type Completion, type CompleteOptions, type Model } from '../model.ts';

export interface ScriptedOptions {
  /** Appended to the id (`scripted:NAME`); defaults to the number of outputs. */
  readonly name?: string;
  /** The family the edit-format bandit keys on; `scripted` unless a replay names the original. */
  readonly family?: string;
  readonly contextWindow?: number;
}

export class ScriptedModel implements Model {
  readonly id: string;
  readonly family: string;
  readonly contextWindow?: number;
  /** The messages of every call, in order (for tests and replay checks). */
  readonly received: (readonly ChatMessage[])[] = [];
  private next = 0;

  constructor(
    private readonly outputs: readonly string[],
    opts: ScriptedOptions = {},
  ) {
    this.id = `scripted:${opts.name ?? `${outputs.length}-outputs`}`;
    this.family = opts.family ?? 'scripted';
    if (opts.contextWindow !== undefined) this.contextWindow = opts.contextWindow;
  }

  complete(messages: readonly ChatMessage[], opts: CompleteOptions): Promise<Completion> {
    if (opts.signal?.aborted) return Promise.reject(new ModelError('aborted', 'The model request was stopped.'));
    this.received.push(messages);
    const text = this.outputs[this.next];
    if (text === undefined) {
      const n = this.outputs.length;
      return Promise.reject(
        new ModelError(
          'exhausted',
          `the scripted model has no output left: all ${n} recorded output${n === 1 ? ' was' : 's were'} used and the run asked for another. ` +
            'A recorded run that ends without the done JSON stops here; add the missing outputs to the script to go further.',
        ),
      );
    }
    this.next++;
    opts.onToken?.(text);
    return Promise.resolve({ text });
  }
}
