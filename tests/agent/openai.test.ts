/**
 * The OpenAI-compatible adapter against a real HTTP server on 127.0.0.1 that speaks the
 * protocol: streaming SSE, a plain JSON reply, HTTP errors, a rejected response_format, a
 * refused connection, the browser's opaque "Failed to fetch", a server that never answers,
 * a stop mid-stream, and the tools API: schemas sent as `tools`, `tool_calls` read back as the call.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchError, normalizeBaseUrl, OpenAIModel } from '../../src/agent/models/openai.ts';
import { isModelError, type CompleteOptions } from '../../src/agent/model.ts';
import { runLoop } from '../../src/agent/loop.ts';
import { engineWith, echoTool } from './support.ts';

type Handler = (req: IncomingMessage, body: any, res: ServerResponse) => void;

let server: Server;
let base = '';
let handler: Handler = () => {};
const requests: { body: any; auth: string | undefined }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = raw ? JSON.parse(raw) : undefined;
      requests.push({ body, auth: req.headers.authorization });
      handler(req, body, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => {
  server.closeAllConnections(); // keep-alive sockets would hold close() open
  return new Promise<void>((r) => server.close(() => r()));
});

function sse(res: ServerResponse, events: string[], gapMs = 2): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  let i = 0;
  const next = () => {
    if (i === events.length) return res.end();
    res.write(events[i++]!);
    setTimeout(next, gapMs);
  };
  next();
}

const chunk = (content: string) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content } }] })}\n\n`;
const OPTS: CompleteOptions = { seed: 7, temperature: 0, maxTokens: 64 };
const MSGS = [{ role: 'user' as const, content: 'hi' }];

async function failure(p: Promise<unknown>) {
  try {
    await p;
  } catch (e) {
    if (isModelError(e)) return e;
    throw e;
  }
  throw new Error('expected a ModelError');
}

describe('OpenAI-compatible adapter', () => {
  it('streams SSE deltas (split across writes, CRLF framing), reports usage, sends seed, key and schema', async () => {
    handler = (_req, _body, res) =>
      sse(res, [
        chunk('{"tool": '),
        'data: {"choices":[{"index":0,"delta":{"content":"\\"done\\", "}}]}\r\n\r\n',
        ': keep-alive comment\n\n',
        'data: {"choices":[{"index":0,"delta":{"content":"\\"args\\": {\\"summary\\": \\"ok\\"}}"}}]}\n',
        '\n',
        `data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 11, completion_tokens: 9 } })}\n\n`,
        'data: [DONE]\n\n',
      ]);
    const model = new OpenAIModel({ baseUrl: base, model: 'qwen2.5-coder:1.5b', apiKey: 'sk-test' });
    const deltas: string[] = [];
    const out = await model.complete(MSGS, { ...OPTS, jsonSchema: { type: 'object' }, onToken: (d) => deltas.push(d) });
    expect(out).toMatchObject({
      text: '{"tool": "done", "args": {"summary": "ok"}}',
      usage: { promptTokens: 11, completionTokens: 9 },
    });
    expect(out.exchange).toEqual({
      request: {
        model: 'qwen2.5-coder:1.5b',
        messages: { count: 1, chars: [{ role: 'user', chars: 2 }] },
        temperature: 0,
        seed: 7,
        max_tokens: 64,
        stream: true,
        stream_options: { include_usage: true },
        response_format: {
          type: 'json_schema',
          json_schema: { name: 'tool_call', schema: { type: 'object' }, strict: false },
        },
      },
      response: { usage: { prompt_tokens: 11, completion_tokens: 9 }, content_chars: 43 },
    });
    expect(deltas).toHaveLength(3);
    const sent = requests.at(-1)!;
    expect(sent.auth).toBe('Bearer sk-test');
    expect(sent.body).toMatchObject({
      model: 'qwen2.5-coder:1.5b',
      seed: 7,
      temperature: 0,
      max_tokens: 64,
      stream: true,
      stream_options: { include_usage: true },
      response_format: { type: 'json_schema', json_schema: { name: 'tool_call', schema: { type: 'object' } } },
    });
    expect(model.id).toBe(`openai:${base}#qwen2.5-coder:1.5b`);
    expect(model.family).toBe('qwen2.5-coder');
  });

  it('reads a non-streaming JSON reply', async () => {
    handler = (_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          choices: [{ message: { role: 'assistant', content: 'hello' } }],
          usage: { prompt_tokens: 3, completion_tokens: 1 },
        }),
      );
    };
    for (const stream of [false, true]) {
      // With stream: true the server ignores it here and still answers with JSON.
      const out = await new OpenAIModel({ baseUrl: base, model: 'm', stream }).complete(MSGS, OPTS);
      expect(out).toMatchObject({ text: 'hello', usage: { promptTokens: 3, completionTokens: 1 } });
      expect(requests.at(-1)!.body.stream).toBe(stream);
    }
  });

  it.each([
    {
      status: 500,
      body: '{"error":"model failed to load"}',
      says: [
        /answered HTTP 500 Internal Server Error: \{"error":"model failed to load"\}/,
        /server's log|its log says why/,
      ],
    },
    { status: 404, body: 'model "nope" not found', says: [/HTTP 404/, /model "nope" not found/, /ends in \/v1/] },
    { status: 401, body: 'bad key', says: [/HTTP 401/, /Check the API key/] },
  ])('HTTP $status becomes a message with the status, the body and what to check', async (row) => {
    handler = (_req, _body, res) => {
      res.writeHead(row.status, { 'content-type': 'text/plain' });
      res.end(row.body);
    };
    const e = await failure(new OpenAIModel({ baseUrl: base, model: 'm' }).complete(MSGS, OPTS));
    expect(e.code).toBe('http');
    for (const re of row.says) expect(e.message).toMatch(re);
  });

  it('drops response_format for the session when the server rejects it', async () => {
    handler = (_req, body, res) => {
      if (body.response_format) {
        res.writeHead(400, { 'content-type': 'application/json' });
        return res.end('{"error":{"message":"response_format json_schema is not supported"}}');
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { content: 'ok' } }] }));
    };
    const model = new OpenAIModel({ baseUrl: base, model: 'm', stream: false });
    const n = requests.length;
    expect((await model.complete(MSGS, { ...OPTS, jsonSchema: {} })).text).toBe('ok');
    expect((await model.complete(MSGS, { ...OPTS, jsonSchema: {} })).text).toBe('ok');
    expect(requests.slice(n).map((r) => 'response_format' in r.body)).toEqual([true, false, false]);
  });

  it('a reply that is not a completion is a bad-response error', async () => {
    handler = (_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"object":"list","data":[]}');
    };
    const e = await failure(new OpenAIModel({ baseUrl: base, model: 'm', stream: false }).complete(MSGS, OPTS));
    expect(e.code).toBe('bad-response');
    expect(e.message).toMatch(/not a chat completion/);
  });

  it('a refused connection says to start the server', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const e = await failure(
      new OpenAIModel({ baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm' }).complete(MSGS, OPTS),
    );
    expect(e.code).toBe('connection');
    expect(e.message).toMatch(/connection refused\. Start the server \(e\.g\. `ollama serve`/);
  });

  it("the browser's Failed to fetch is explained as a CORS setting of Ollama / LM Studio", async () => {
    const browserFetch = (() => Promise.reject(new TypeError('Failed to fetch'))) as typeof fetch;
    const e = await failure(new OpenAIModel({ baseUrl: base, model: 'm', fetch: browserFetch }).complete(MSGS, OPTS));
    expect(e.code).toBe('cors');
    expect(e.message).toMatch(/OLLAMA_ORIGINS/);
    expect(e.message).toMatch(/Enable CORS/);
  });

  it('a server that never starts answering times out with a Retry hint; a slow stream after the headers is not cut', async () => {
    handler = () => {}; // holds the request open, answers nothing
    const e = await failure(new OpenAIModel({ baseUrl: base, model: 'm', answerTimeoutMs: 150 }).complete(MSGS, OPTS));
    expect(e.code).toBe('connection');
    expect(e.message).toMatch(
      /\/v1\/chat\/completions did not start answering within 0.15 s\. Check that the server is running .* then press Retry\./,
    );
    handler = (_req, _body, res) => sse(res, [chunk('slow'), chunk(' but'), chunk(' whole'), 'data: [DONE]\n\n'], 120);
    const c = await new OpenAIModel({ baseUrl: base, model: 'm', answerTimeoutMs: 150 }).complete(MSGS, OPTS);
    expect(c.text).toBe('slow but whole');
  });

  it('stopping mid-stream rejects with aborted', async () => {
    handler = (_req, _body, res) => sse(res, [chunk('a'), chunk('b'), chunk('c'), 'data: [DONE]\n\n'], 30);
    const ac = new AbortController();
    const p = new OpenAIModel({ baseUrl: base, model: 'm' }).complete(MSGS, {
      ...OPTS,
      signal: ac.signal,
      onToken: () => ac.abort(),
    });
    expect((await failure(p)).code).toBe('aborted');
  });

  it('drives the loop to done over the wire', async () => {
    const replies = ['{"tool": "echo", "args": {"text": "pong"}}', '{"tool": "done", "args": {"summary": "echoed"}}'];
    handler = (_req, _body, res) => sse(res, [chunk(replies.shift()!), 'data: [DONE]\n\n']);
    const { engine } = engineWith([echoTool({ calls: [] })]);
    const r = await runLoop({
      engine,
      model: new OpenAIModel({ baseUrl: base, model: 'qwen2.5-coder:1.5b' }),
      task: 'echo pong',
    });
    expect(r.stop).toMatchObject({ kind: 'done', summary: 'echoed' });
    expect(r.steps[0]!.observation).toBe('pong');
    expect(requests.at(-1)!.body.messages.at(-1)).toEqual({ role: 'user', content: 'pong' });
  });
});

describe("tools API (toolsApi: the server parses its model's own format)", () => {
  const CALL_SCHEMA = {
    anyOf: [
      {
        type: 'object',
        properties: {
          thought: { type: 'string' },
          tool: { const: 'echo' },
          args: { type: 'object', properties: { text: { type: 'string' } } },
        },
        required: ['tool', 'args'],
      },
      {
        type: 'object',
        properties: {
          thought: { type: 'string' },
          tool: { const: 'done' },
          args: { type: 'object', properties: { summary: { type: 'string' } } },
        },
        required: ['tool', 'args'],
      },
    ],
  };
  const toolCall = (index: number, name: string | undefined, args: string) => ({
    index,
    ...(name && { id: `call_${index}`, type: 'function' }),
    function: { ...(name && { name }), arguments: args },
  });
  const callChunk = (calls: object[]) =>
    `data: ${JSON.stringify({ choices: [{ index: 0, delta: { tool_calls: calls } }] })}\n\n`;
  const finish = (reason: string) =>
    `data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: reason }] })}\n\n`;

  it('sends the schemas as tools with tool_choice auto and no response_format', async () => {
    handler = (_req, _body, res) => sse(res, [chunk('hi'), 'data: [DONE]\n\n']);
    const out = await new OpenAIModel({ baseUrl: base, model: 'm', toolsApi: true }).complete(MSGS, {
      ...OPTS,
      jsonSchema: CALL_SCHEMA,
    });
    const body = requests.at(-1)!.body;
    expect(body).not.toHaveProperty('response_format');
    expect(body.tool_choice).toBe('auto');
    expect(body.tools).toEqual([
      {
        type: 'function',
        function: { name: 'echo', parameters: { type: 'object', properties: { text: { type: 'string' } } } },
      },
      {
        type: 'function',
        function: { name: 'done', parameters: { type: 'object', properties: { summary: { type: 'string' } } } },
      },
    ]);
    expect(out.exchange?.request).toMatchObject({ tools: body.tools, tool_choice: 'auto' });
    expect(out.text).toBe('hi'); // content only: the loop's parser reads it as it is
  });

  it.each([
    {
      name: 'a streamed tool call (name, then the arguments in pieces)',
      events: [
        callChunk([toolCall(0, 'echo', '')]),
        callChunk([toolCall(0, undefined, '{"text": ')]),
        callChunk([toolCall(0, undefined, '"pong"}')]),
        finish('tool_calls'),
      ],
      text: '{"tool": "echo", "args": {"text": "pong"}}',
      toolCalls: [{ name: 'echo', arguments: '{"text": "pong"}' }],
    },
    {
      name: 'a streamed tool call whose pieces carry no index',
      events: [
        callChunk([{ function: { name: 'echo', arguments: '{"text"' } }]),
        callChunk([{ function: { arguments: ': "x"}' } }]),
        finish('tool_calls'),
      ],
      text: '{"tool": "echo", "args": {"text": "x"}}',
      toolCalls: [{ name: 'echo', arguments: '{"text": "x"}' }],
    },
    {
      name: 'two tool calls in one reply',
      events: [
        callChunk([toolCall(0, 'echo', '{"text":"a"}')]),
        callChunk([toolCall(1, 'done', '{"summary":"x"}')]),
        finish('tool_calls'),
      ],
      text: '{"tool": "echo", "args": {"text":"a"}}\n{"tool": "done", "args": {"summary":"x"}}',
      toolCalls: [
        { name: 'echo', arguments: '{"text":"a"}' },
        { name: 'done', arguments: '{"summary":"x"}' },
      ],
    },
  ])('$name becomes the canonical call text; the response summary lists the calls', async (row) => {
    handler = (_req, _body, res) => sse(res, [...row.events, 'data: [DONE]\n\n']);
    const deltas: string[] = [];
    const out = await new OpenAIModel({ baseUrl: base, model: 'm', toolsApi: true }).complete(MSGS, {
      ...OPTS,
      jsonSchema: CALL_SCHEMA,
      onToken: (d) => deltas.push(d),
    });
    expect(out.text).toBe(row.text);
    expect(deltas.join('')).toBe(row.text);
    expect(out.exchange?.response).toEqual({
      finish_reason: 'tool_calls',
      content_chars: 0,
      tool_calls: row.toolCalls,
    });
  });

  it('reads tool_calls from a non-streaming reply, arguments as a string or an object', async () => {
    handler = (_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          choices: [
            {
              message: { content: null, tool_calls: [{ function: { name: 'echo', arguments: { text: 'obj' } } }] },
              finish_reason: 'tool_calls',
            },
          ],
        }),
      );
    };
    const out = await new OpenAIModel({ baseUrl: base, model: 'm', stream: false, toolsApi: true }).complete(MSGS, {
      ...OPTS,
      jsonSchema: CALL_SCHEMA,
    });
    expect(out.text).toBe('{"tool": "echo", "args": {"text":"obj"}}');
  });

  /** A server that answers each request with the next reply's tool_calls. */
  function serveCalls(replies: { name: string; arguments: string }[][]): void {
    handler = (_req, _body, res) =>
      sse(res, [
        callChunk(replies.shift()!.map((c, i) => toolCall(i, c.name, c.arguments))),
        finish('tool_calls'),
        'data: [DONE]\n\n',
      ]);
  }

  it('in the loop, two tool_calls: the first runs and the second is reported dropped', async () => {
    serveCalls([
      [
        { name: 'echo', arguments: '{"text":"pong"}' },
        { name: 'echo', arguments: '{"text":"again"}' },
      ],
      [{ name: 'done', arguments: '{"summary":"echoed"}' }],
    ]);
    const probe = { calls: [] as { tool: string; args: unknown }[] };
    const { engine } = engineWith([echoTool(probe)]);
    const r = await runLoop({
      engine,
      model: new OpenAIModel({ baseUrl: base, model: 'm', toolsApi: true }),
      task: 'echo pong',
    });
    expect(r.stop).toMatchObject({ kind: 'done', summary: 'echoed' });
    expect(probe.calls).toEqual([{ tool: 'echo', args: { text: 'pong' } }]);
    expect(r.steps[0]!.notes).toContainEqual(expect.objectContaining({ kind: 'dropped-calls', detail: 'echo' }));
    expect(r.steps[0]!.observation).toMatch(/only your first call was run; 1 more call was dropped \(echo\)/);
    expect(r.steps[0]!.exchange?.response).toMatchObject({ finish_reason: 'tool_calls' });
  });

  it('in the loop, arguments that are not JSON are answered with the retry message', async () => {
    serveCalls([[{ name: 'echo', arguments: '{text: pong}' }], [{ name: 'done', arguments: '{"summary":"retried"}' }]]);
    const probe = { calls: [] as { tool: string; args: unknown }[] };
    const { engine } = engineWith([echoTool(probe)]);
    const r = await runLoop({
      engine,
      model: new OpenAIModel({ baseUrl: base, model: 'm', toolsApi: true }),
      task: 'echo pong',
    });
    expect(probe.calls).toEqual([]);
    expect(r.steps[0]!.parseError?.kind).toBe('invalid-json');
    expect(r.steps[0]!.notes).toContainEqual(expect.objectContaining({ kind: 'parse-retry' }));
    expect(r.steps[0]!.observation).toMatch(/could not be parsed/);
    expect(r.stop).toMatchObject({ kind: 'done', summary: 'retried' });
  });
});

describe('helpers', () => {
  it.each([
    ['http://127.0.0.1:11434', 'http://127.0.0.1:11434/v1'],
    ['http://127.0.0.1:11434/', 'http://127.0.0.1:11434/v1'],
    ['http://127.0.0.1:1234/v1/', 'http://127.0.0.1:1234/v1'],
    ['https://example.test/api/openai/v1', 'https://example.test/api/openai/v1'],
  ])('normalizeBaseUrl(%s)', (given, want) => expect(normalizeBaseUrl(given)).toBe(want));

  it('an AbortError from fetch is aborted', () => {
    expect(fetchError('u', Object.assign(new Error('x'), { name: 'AbortError' })).code).toBe('aborted');
  });
});
