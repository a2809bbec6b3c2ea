/**
 * A GGUF header read over HTTP (agent/models/gguf-remote.ts), as the Eval page labels a model
 * given by URL: from a server that honours Range (only the head of the file is sent) and from
 * one that ignores it (the whole-file answer is cut off after the bytes asked for), and the
 * Eval page's label of the generated test model by URL — the test model's, not a real model's.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metaString, readGgufHeader } from '../../src/agent/models/gguf-header.ts';
import { remoteGguf } from '../../src/agent/models/gguf-remote.ts';
import { EvalHost } from '../../src/worker/eval-host.ts';
import type { EvalEvent } from '../../src/worker/protocol.ts';
import { makeTestModel, TEST_MODEL_NAME } from '../support/gguf/test-model.ts';

/** The test model followed by 24 MB of padding, as a real model's tensors follow its header. */
const model = Buffer.concat([Buffer.from(makeTestModel()), Buffer.alloc(24 * 1024 * 1024)]);
let server: Server;
let origin: string;
/** Bytes each answer sent, by path. */
const sent: Record<string, number[]> = {};

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '';
    const range = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
    let body: Buffer;
    if (path === '/ranged.gguf' && range) {
      const [start, end] = [Number(range[1]), Math.min(Number(range[2]), model.length - 1)];
      body = model.subarray(start, end + 1);
      res.writeHead(206, { 'content-range': `bytes ${start}-${end}/${model.length}`, 'content-length': body.length });
    } else if (path === '/ranged.gguf' || path === '/whole.gguf') {
      body = model;
      res.writeHead(200, { 'content-length': body.length });
    } else if (path === '/stall.gguf') {
      res.writeHead(200, { 'content-length': model.length }); // and nothing more
      return;
    } else {
      res.writeHead(404).end();
      return;
    }
    (sent[path] ??= []).push(body.length);
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(() => server?.close());

describe('a GGUF header over HTTP', () => {
  it('from a server with Range: only the head of the file is asked for', async () => {
    const header = await readGgufHeader(await remoteGguf(`${origin}/ranged.gguf`));
    expect(metaString(header, 'general.name')).toBe(TEST_MODEL_NAME);
    expect(Math.max(...sent['/ranged.gguf']!)).toBeLessThanOrEqual(1 << 20);
  });

  it('from a server without Range: the same header, read from the head of the whole-file answer', async () => {
    const header = await readGgufHeader(await remoteGguf(`${origin}/whole.gguf`));
    expect(metaString(header, 'general.name')).toBe(TEST_MODEL_NAME);
  });

  it('a header longer than the first read is read in growing slices', async () => {
    const header = await readGgufHeader(await remoteGguf(`${origin}/ranged.gguf`, { firstBytes: 64 }));
    expect(metaString(header, 'general.name')).toBe(TEST_MODEL_NAME);
  });

  it('slices anywhere in the file, and a slice past the first read after one elsewhere still reads in full', async () => {
    const source = await remoteGguf(`${origin}/ranged.gguf`, { firstBytes: 1000 });
    expect(Buffer.from(await source.slice(100, 2000).arrayBuffer()).equals(model.subarray(100, 2000))).toBe(true);
    expect(Buffer.from(await source.slice(0, 3000).arrayBuffer()).equals(model.subarray(0, 3000))).toBe(true);
  });

  it('a server that sends nothing is given up on when the signal ends', async () => {
    await expect(remoteGguf(`${origin}/stall.gguf`, { signal: AbortSignal.timeout(300) })).rejects.toThrow(
      /abort|timeout/i,
    );
  });

  it('a missing file is an error naming the answer', async () => {
    await expect(remoteGguf(`${origin}/missing.gguf`)).rejects.toThrow(/missing\.gguf answered 404/);
  });

  it("an eval of the test model by URL is labelled the test model's, before anything runs", async () => {
    const events: EvalEvent[] = [];
    const h = new EvalHost((_id, e) => events.push(e));
    const started = await h.start({
      tasks: [new EvalHost(() => {}).builtinSuite().tasks[0]!.id],
      arms: ['on'],
      seeds: 1,
      model: { kind: 'gguf', source: { url: `${origin}/ranged.gguf` } },
      jobs: 1,
      maxSteps: 2,
      contextTokens: 4096,
    });
    h.stop(started.evalId);
    expect(started.model).toMatchObject({ label: 'test-model', note: expect.stringMatching(/mean nothing/) });
    await expect.poll(() => events.some((e) => e.kind === 'ended'), { timeout: 30_000 }).toBe(true);
  });
});
