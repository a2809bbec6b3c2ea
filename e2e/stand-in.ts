/**
 * A stand-in for an OpenAI-compatible endpoint: a small local server that answers /v1/models and
 * /v1/chat/completions with the starter run's outputs, or fails the way real servers fail (an
 * error status, a body that is not a completion, a long silence before a streamed answer).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { STARTER_RUN } from '../src/agent/scripts/starter-run.ts';

/** How the stand-in answers a completion request. */
export type StandInReply =
  /** The next starter output as one JSON body. */
  | 'ok'
  /** HTTP 500 with an error body. */
  | 'http-500'
  /** Status 200 with a body that is not a completion. */
  | 'garbage'
  /** Silent for `silentMs`, then the next starter output streamed (SSE) in pieces `pieceMs` apart. */
  | { readonly silentMs: number; readonly pieceMs: number };

export interface StandIn {
  readonly url: string;
  readonly requests: string[];
  close(): Promise<void>;
}

/**
 * Starts the stand-in; `cors` false leaves out the CORS headers a browser needs. `outputs` are
 * the replies, one per completion (the starter run's by default; the last one repeats).
 */
export async function standIn(
  cors: boolean,
  reply: StandInReply = 'ok',
  outputs: readonly string[] = STARTER_RUN.outputs,
): Promise<StandIn> {
  const requests: string[] = [];
  let next = 0;
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    requests.push(`${req.method} ${req.url}`);
    if (cors) {
      res.setHeader('access-control-allow-origin', '*');
      res.setHeader('access-control-allow-headers', 'content-type, authorization');
      res.setHeader('access-control-allow-methods', 'GET, POST, OPTIONS');
    }
    if (req.method === 'OPTIONS') return void res.writeHead(204).end();
    if (req.method === 'GET' && req.url === '/v1/models') {
      res.setHeader('content-type', 'application/json');
      return void res.end(JSON.stringify({ data: [{ id: 'stand-in-coder' }] }));
    }
    if (req.method === 'POST' && req.url === '/v1/chat/completions') {
      req.resume();
      req.on('end', () => {
        const content = outputs[Math.min(next++, outputs.length - 1)]!;
        if (reply === 'http-500') {
          res.writeHead(500, { 'content-type': 'application/json' });
          return void res.end(JSON.stringify({ error: { message: 'the stand-in failed on purpose' } }));
        }
        if (reply === 'garbage') {
          res.setHeader('content-type', 'text/html');
          return void res.end('<html><body>Service temporarily unavailable</body></html>');
        }
        if (reply === 'ok') {
          res.setHeader('content-type', 'application/json');
          return void res.end(
            JSON.stringify({
              choices: [{ message: { role: 'assistant', content } }],
              usage: { prompt_tokens: 900 + next, completion_tokens: 40 },
            }),
          );
        }
        void streamSlowly(res, content, reply);
      });
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function streamSlowly(
  res: ServerResponse,
  content: string,
  timing: { readonly silentMs: number; readonly pieceMs: number },
): Promise<void> {
  await sleep(timing.silentMs);
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const pieces = content.match(/[\s\S]{1,12}/g) ?? [];
  for (const piece of pieces) {
    if (res.destroyed) return;
    res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: piece } }] })}\n\n`);
    await sleep(timing.pieceMs);
  }
  res.end('data: [DONE]\n\n');
}
