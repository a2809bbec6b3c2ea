/**
 * A page's side of the worker protocol for tests, in one process: the real client joined to a
 * real engine host (worker/in-process.ts), every run event it receives, and waits over them.
 * The client is disposed when the test that made it ends.
 */
import { onTestFinished } from 'vitest';
import type { RunEvent, SessionHeader, StepRecord } from '../../src/worker/client.ts';
import { connectInProcess } from '../../src/worker/in-process.ts';
import type { RunServices } from '../../src/worker/run-host.ts';
import { createTemplateSession } from '../../src/worker/starter-session.ts';
import type { Session } from '../../src/session/record.ts';

/** An OpenAI-compatible endpoint (`services.fetch`) whose model answers every request with `done`. */
export const doneEndpoint: typeof fetch = async () =>
  new Response(
    JSON.stringify({
      choices: [
        {
          message: { role: 'assistant', content: JSON.stringify({ tool: 'done', args: { summary: 'left as it is' } }) },
        },
      ],
    }),
    { headers: { 'content-type': 'application/json' } },
  );

/** The model choice that reaches `doneEndpoint` (any base URL: the injected fetch answers it). */
export const DONE_MODEL = { kind: 'openai', baseUrl: 'http://127.0.0.1:9/v1', model: 'stub' } as const;

/** Connects a client to a fresh host (runs using `services`); call inside a test. */
export function connectRunClient(services: RunServices = {}) {
  const { client } = connectInProcess(() => createTemplateSession(), services);
  onTestFinished(() => client.dispose());
  const events: { runId: number; event: RunEvent }[] = [];
  client.onRunEvent((runId, event) => events.push({ runId, event }));
  const of = (runId: number) => events.filter((e) => e.runId === runId).map((e) => e.event);
  const steps = (runId: number): StepRecord[] => of(runId).flatMap((e) => (e.kind === 'step' ? [e.record] : []));
  /** Waits (15 s at most) until `cond` holds; the error names `what` and the events so far. */
  async function until(what: string, cond: () => boolean): Promise<void> {
    const end = Date.now() + 15_000;
    while (!cond()) {
      if (Date.now() > end)
        throw new Error(`timed out waiting for ${what}; events: ${JSON.stringify(events.map((e) => e.event.kind))}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }
  const ended = (runId: number) => until(`run ${runId} to end`, () => of(runId).some((e) => e.kind === 'ended'));
  /** The record the page assembles: the header plus each step's entry. */
  function session(runId: number): Session {
    const header = of(runId).find((e): e is { kind: 'session'; header: SessionHeader } => e.kind === 'session')?.header;
    if (!header) throw new Error(`run ${runId} sent no session header`);
    return { ...header, steps: steps(runId).map((r) => r.recorded!) };
  }
  const verdicts = (runId: number) => of(runId).flatMap((e) => (e.kind === 'verdict' ? [e.verdict] : []));
  const stop = (runId: number) => of(runId).flatMap((e) => (e.kind === 'ended' ? [e] : []))[0];
  return {
    client,
    events: events as readonly { runId: number; event: RunEvent }[],
    of,
    steps,
    until,
    ended,
    session,
    verdicts,
    stop,
  };
}
