/**
 * A GGUF's facts from its header alone (agent/models/gguf-facts.ts), as the start screen shows a
 * URL or a file of one's own: the trained context and the KV cache's shape, one row per header
 * rule; read from a file in place and from a URL by Range requests (only the head is sent), and
 * each way it can fail said in words.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ggufFacts, readGgufFacts } from '../../src/agent/models/gguf-facts.ts';
import { readGgufHeader } from '../../src/agent/models/gguf-header.ts';
import { makeTestModel, TEST_MODEL_NAME } from '../support/gguf/test-model.ts';
import { writeGguf, type GgufValue } from '../support/gguf/writer.ts';

const u32 = (value: number): GgufValue => ({ kind: 'u32', value });
const str = (value: string): GgufValue => ({ kind: 'string', value });
const header = (entries: [string, GgufValue][]) => readGgufHeader(new Blob([writeGguf(new Map(entries), []).slice()]));

const SHAPE: [string, GgufValue][] = [
  ['general.architecture', str('qwen2')],
  ['qwen2.context_length', u32(32768)],
  ['qwen2.block_count', u32(24)],
  ['qwen2.embedding_length', u32(896)],
  ['qwen2.attention.head_count', u32(14)],
  ['qwen2.attention.head_count_kv', u32(2)],
];

describe('ggufFacts: one row per header rule', () => {
  it.each<[string, [string, GgufValue][], object]>([
    [
      'trained context from <arch>.context_length; KV bytes from layers × KV heads × embedding/heads (Qwen2.5 0.5B: 12 KiB)',
      SHAPE,
      { architecture: 'qwen2', trained: { tokens: 32768, key: 'qwen2.context_length' }, kvBytesPerToken: 12288 },
    ],
    [
      'attention.key_length, where given, is the head size',
      [...SHAPE, ['qwen2.attention.key_length', u32(128)]],
      { kvBytesPerToken: 2 * 24 * 2 * 128 * 2 },
    ],
    [
      'no head_count_kv: every head keeps its keys and values',
      SHAPE.filter(([k]) => k !== 'qwen2.attention.head_count_kv'),
      { kvBytesPerToken: 2 * 24 * 14 * 64 * 2 },
    ],
    [
      'a per-layer KV head count is averaged over the layers',
      [
        ...SHAPE.filter(([k]) => k !== 'qwen2.attention.head_count_kv'),
        [
          'qwen2.attention.head_count_kv',
          { kind: 'array', of: 'u32', values: Array.from({ length: 24 }, (_, i) => (i % 2 ? 4 : 2)) },
        ],
      ],
      { kvBytesPerToken: 2 * 24 * 3 * 64 * 2 },
    ],
    [
      'no architecture: no trained context, no KV shape',
      SHAPE.slice(1),
      { architecture: undefined, trained: undefined, kvBytesPerToken: undefined },
    ],
    [
      'no block_count: the trained context, but no KV shape',
      SHAPE.filter(([k]) => k !== 'qwen2.block_count'),
      { trained: { tokens: 32768, key: 'qwen2.context_length' }, kvBytesPerToken: undefined },
    ],
    [
      'name and size label from general.*',
      [...SHAPE, ['general.name', str('Qwen2.5 Coder 0.5B Instruct')], ['general.size_label', str('494M')]],
      { name: 'Qwen2.5 Coder 0.5B Instruct', params: '494M' },
    ],
  ])('%s', async (_rule, entries, expected) => {
    const facts = ggufFacts(await header(entries), undefined);
    for (const [k, v] of Object.entries(expected)) expect(facts[k as keyof typeof facts], k).toEqual(v);
  });

  it('the file size gives the memory apart from the KV cache: the file and 150 MiB of buffers', async () => {
    expect(ggufFacts(await header(SHAPE), 400 * 2 ** 20)).toMatchObject({ bytes: 400 * 2 ** 20, baseMB: 550 });
  });
});

const model = makeTestModel({ contextLength: 2048 });
/** The test model and 24 MB of padding, as a real model's tensors follow its header. */
const padded = Buffer.concat([Buffer.from(model), Buffer.alloc(24 * 2 ** 20)]);
let server: Server;
let origin: string;
const sent: number[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const range = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
    if (req.url === '/ranged.gguf' && range) {
      const [start, end] = [Number(range[1]), Math.min(Number(range[2]), padded.length - 1)];
      const body = padded.subarray(start, end + 1);
      sent.push(body.length);
      res.writeHead(206, { 'content-range': `bytes ${start}-${end}/${padded.length}` }).end(body);
    } else if (req.url === '/no-ranges.gguf') {
      res.writeHead(416, 'Range Not Satisfiable').end();
    } else if (req.url === '/hidden-size.gguf' && range) {
      // A 206 without Content-Range (as a cross-origin page sees one whose server does not expose it).
      res.writeHead(206).end(padded.subarray(Number(range[1]), Number(range[2]) + 1));
    } else res.writeHead(404, 'Not Found').end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(() => server?.close());

describe('readGgufFacts', () => {
  it('a file: read in place, its size known', async () => {
    const facts = await readGgufFacts({ file: new Blob([model.slice()]), name: 'm.gguf' });
    expect(facts).toMatchObject({
      name: TEST_MODEL_NAME,
      architecture: 'llama',
      trained: { tokens: 2048, key: 'llama.context_length' },
      // 2 layers × 2 KV heads × (64 / 4) per head, a key and a value at 2 bytes.
      kvBytesPerToken: 256,
      bytes: model.length,
    });
  });

  it('a URL: its head only, by a Range request, and its size from Content-Range', async () => {
    const facts = await readGgufFacts({ url: `${origin}/ranged.gguf` });
    expect(facts).toMatchObject({ trained: { tokens: 2048 }, bytes: padded.length });
    expect(sent.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(2 ** 20);
  });

  it('a URL whose size the server does not say: the facts without it', async () => {
    const facts = await readGgufFacts({ url: `${origin}/hidden-size.gguf` });
    expect(facts.trained?.tokens).toBe(2048);
    expect(facts.bytes).toBeUndefined();
    expect(facts.baseMB).toBeUndefined();
  });

  it.each<[string, () => Promise<unknown>, RegExp]>([
    [
      'a server that refuses the range',
      () => readGgufFacts({ url: `${origin}/no-ranges.gguf` }),
      /refused the byte range asked for \(HTTP 416\)/,
    ],
    [
      'a missing file',
      () => readGgufFacts({ url: `${origin}/missing.gguf` }),
      /missing\.gguf answered 404 Not Found: its header could not be read/,
    ],
    [
      'no server',
      () => readGgufFacts({ url: 'http://127.0.0.1:9/m.gguf' }),
      /could not be reached from this page .*CORS/,
    ],
    [
      'not a GGUF file',
      () => readGgufFacts({ file: new Blob(['PK\u0003\u0004 zip']), name: 'a.zip' }),
      /^a\.zip: This is not a GGUF file/,
    ],
  ])('%s: says why', async (_case, read, message) => {
    await expect(read()).rejects.toThrow(message);
  });
});
