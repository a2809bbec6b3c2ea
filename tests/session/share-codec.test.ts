/**
 * The share-link codec: a property round trip over random records, and one row per bad link —
 * each becomes a refusal of its own kind with a message naming the cause, never an exception.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeWasm } from '../support/node-wasm.ts';
import { RECORD_LIMITS, sharedForm, type Session } from '../../src/session/record.ts';
import { COMFORTABLE_LINK_CHARS, decodeShare, encodeSession, linkReport, MAX_LINK_CHARS, MAX_SESSION_FILE_BYTES, parseSessionFile, shareUrl } from '../../src/session/share-codec.ts';
import type { RefusalKind } from '../../src/session/validate.ts';
import { copy, encodeJson, recordScript } from './support.ts';

let session: Session;
let link: string;
let payload: string;

beforeAll(async () => {
  useNodeWasm();
  session = await recordScript();
  link = await shareUrl(session, 'https://example.org/play?x=1#old');
  payload = link.slice(link.indexOf('#s=') + 3);
});

const hex12 = fc.stringMatching(/^[0-9a-f]{12}$/);
// Windows device names (con, nul, com1 …) are refused by the jail on purpose: not valid file names here.
const DEVICE = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/;
const segment = fc.stringMatching(/^[a-z0-9_][a-z0-9_-]{0,7}$/).filter((s) => !DEVICE.test(s.split('.')[0]!));
const path = fc.array(segment, { minLength: 1, maxLength: 3 }).map((s) => s.join('/'));
const step = fc.record(
  {
    raw: fc.string({ unit: 'binary', maxLength: 200 }),
    call: fc.record({ tool: fc.string({ maxLength: 20 }), args: fc.jsonValue() }),
    resultHash: hex12,
    workspaceHash: hex12,
    resultText: fc.string({ maxLength: 100 }),
    backend: fc.constantFrom('memory', 'node', 'webcontainer'),
    shellOutput: fc.string({ unit: 'binary', maxLength: 100 }),
    tally: fc.record({ passed: fc.nat(100), failed: fc.nat(100), source: fc.constant('ws_test') }),
    approval: fc.constantFrom('approved' as const, 'denied' as const),
  },
  { requiredKeys: ['raw', 'resultHash', 'workspaceHash'] },
);
const record = fc.record({
  v: fc.constant(1 as const),
  engineVersion: fc.stringMatching(/^\d\.\d\.\d\+[0-9a-f]{12}$/),
  createdAt: fc.constant('2025-01-01T00:00:00.000Z'),
  settings: fc.record({
    engine: fc.constant({}),
    agent: fc.record({ maxSteps: fc.integer({ min: 1, max: 1000 }), contextTokens: fc.integer({ min: 256, max: 65536 }), outputTokens: fc.integer({ min: 1, max: 4096 }), jsonMode: fc.boolean(), stallSteps: fc.integer({ min: 1, max: 20 }), maxParseFailures: fc.integer({ min: 1, max: 10 }) }),
  }),
  model: fc.record({ id: fc.string({ maxLength: 40 }), kind: fc.constantFrom('webllm' as const, 'openai' as const, 'scripted' as const), params: fc.dictionary(fc.string({ maxLength: 10 }).filter((k) => k !== '__proto__'), fc.oneof(fc.string({ maxLength: 20 }), fc.integer(), fc.boolean())), seed: fc.nat(), temperature: fc.integer({ min: 0, max: 20 }).map((t) => t / 10) }),
  task: fc.string({ maxLength: 200 }),
  workspace: fc.oneof(fc.record({ template: fc.record({ id: fc.constant('starter'), hash: hex12 }) }), fc.record({ files: fc.dictionary(path, fc.string({ maxLength: 100 }), { maxKeys: 5 }) })),
  steps: fc.array(step, { maxLength: 8 }),
});

describe('round trip', () => {
  it('decode(encode(record)) is the record in its shared form, for random records', async () => {
    await fc.assert(
      fc.asyncProperty(record, async (r) => {
        const s = { ...r, settings: { ...r.settings, engine: session.settings.engine } } as Session;
        const back = await decodeShare(await encodeSession(s));
        expect(back).toEqual({ ok: true, session: sharedForm(s) });
      }),
      { numRuns: 60 },
    );
  });

  it('drops an own __proto__ key instead of carrying it into the record', async () => {
    const hostile = JSON.parse(JSON.stringify(sharedForm(session)).replace('"params":{', '"params":{"__proto__":{"polluted":true},')) as Session;
    const back = await decodeShare(await encodeJson(hostile));
    expect(back.ok).toBe(true);
    if (back.ok) expect(Object.hasOwn(back.session.model.params, '__proto__')).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('accepts a full link, the hash alone, s=… and the bare string, and replaces any old hash', async () => {
    expect(link.startsWith('https://example.org/play?x=1#s=')).toBe(true);
    for (const input of [link, `#s=${payload}`, `s=${payload}`, payload, `  ${link}\n`, `https://example.org/#a=1&s=${payload}`]) {
      expect(await decodeShare(input), input.slice(0, 40)).toEqual({ ok: true, session: sharedForm(session) });
    }
  });

  it('the shared form drops what replay recomputes and keeps raw outputs and hashes', () => {
    const shared = sharedForm(session);
    const kept = (s: object) => ['raw', 'resultHash', 'workspaceHash', 'backend', 'shellOutput'].filter((k) => k in s);
    expect(shared.steps.map((s) => Object.keys(s).sort())).toEqual(session.steps.map((s) => kept(s).sort()));
    expect(session.steps.every((s) => typeof s.resultText === 'string' && s.call !== undefined)).toBe(true);
  });

  it('a session file (the full form) reads back whole', async () => {
    expect(await parseSessionFile(JSON.stringify(session))).toEqual({ ok: true, session });
  });
});

/** The payload cut to about `n` characters, at a length base64 allows (so only the deflate stream notices). */
function cutTo(n: number): string {
  const cut = payload.slice(0, Math.floor(n));
  return cut.length % 4 === 1 ? cut.slice(0, -1) : cut;
}

/** A valid record with one change applied. */
function tampered(change: (s: Record<string, any>) => void): Record<string, unknown> {
  const s = copy(session) as Record<string, any>;
  change(s);
  return s;
}

describe('bad links become messages', () => {
  // Each row: the input (built lazily, from the good link or a crafted record) → refusal kind and what the message must say.
  const rows: [string, () => Promise<string> | string, RefusalKind, RegExp][] = [
    ['a page link without #s=', () => 'https://example.org/play', 'not-a-link', /not a session link: it has no #s=/],
    ['a hash without s=', () => 'https://example.org/#x=1', 'not-a-link', /its "#" part has no s=/],
    ['empty input', () => '', 'not-a-link', /it is empty/],
    ['a tampered character outside the alphabet', () => link.slice(0, -10) + '!' + link.slice(-9), 'bad-characters', /"!" \(U\+0021\) at position \d+/],
    ['a space inside', () => `${payload.slice(0, 20)} ${payload.slice(20)}`, 'bad-characters', /U\+0020/],
    ['cut to an impossible length', () => payload.slice(0, payload.length - ((payload.length - 1) % 4)), 'truncated', /cut short/],
    ['cut in half', () => `#s=${cutTo(payload.length / 2)}`, 'truncated', /cut short: its data ends before the session does/],
    ['nothing after s=', () => 'https://example.org/#s=', 'truncated', /cut short/],
    ['bytes that are not deflate data', () => '____', 'corrupt', /damaged and does not decompress \(invalid block type\)/],
    ['a link longer than the cap', () => 'A'.repeat(MAX_LINK_CHARS + 1), 'too-large', /more than the 1,000,000 a session link may have/],
    ['a bomb: a few KB that inflate past 2 MB', () => encodeJson(`{"v":1,"task":"${'a'.repeat(3_000_000)}"}`), 'bomb', /expands to more than 2 MB/],
    ['deflate of something that is not JSON', () => encodeJson('hello, world'), 'not-json', /decompressed, but not to a session/],
    ['a newer format version', async () => encodeJson(tampered((s) => (s.v = 2))), 'newer-version', /format v2, newer than this build reads \(v1\)/],
    ['a bad hash, named by field', async () => encodeJson(tampered((s) => (s.steps[1].resultHash = 'xyz'))), 'schema', /field steps\.1\.resultHash: must be 12 lowercase hex digits/],
    ['a missing task', async () => encodeJson(tampered((s) => delete s.task)), 'schema', /field task: /],
    ['no version at all', async () => encodeJson({ hello: 'world' }), 'schema', /field v: .*\(and \d+ more problems\)/],
    ['a JSON array', async () => encodeJson([1, 2]), 'schema', /field the top level/],
    ['too many steps', async () => encodeJson(tampered((s) => (s.steps = Array(RECORD_LIMITS.steps + 1).fill(s.steps[0])))), 'schema', /field steps: /],
    ['a starting file outside the root', async () => encodeJson(tampered((s) => (s.workspace = { files: { '../x': 'escape' } }))), 'path', /"\.\.\/x", which the workspace refuses — path refused/],
    ['a starting file in the harness dir', async () => encodeJson(tampered((s) => (s.workspace = { files: { '.slmcode/hooks.json': '{}' } }))), 'path', /"\.slmcode\/hooks\.json".*harness control state/s],
    ['an absolute starting file', async () => encodeJson(tampered((s) => (s.workspace = { files: { '/etc/passwd': '' } }))), 'path', /absolute path/],
    ['a starting file spelled two ways', async () => encodeJson(tampered((s) => (s.workspace = { files: { 'src//a.js': '' } }))), 'path', /not written in normal form \(the workspace would store it as "src\/a\.js"\)/],
  ];

  it.each(rows)('%s', async (_name, input, kind, message) => {
    const out = await decodeShare(await input());
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.kind).toBe(kind);
    expect(out.text).toMatch(message);
    // Every refusal says what to do instead: the file, the original file, or a newer build.
    expect(out.text).toMatch(/Ask for the session file \(\.session\.json\)|ask for the file as it was recorded|Open it in a newer/);
  });

  it('a bomb is stopped while inflating: the input is small and decoding stays fast', async () => {
    const bomb = await encodeJson(`{"v":1,"task":"${'a'.repeat(50_000_000)}"}`);
    expect(bomb.length).toBeLessThan(70_000);
    const t0 = performance.now();
    expect((await decodeShare(bomb)).ok).toBe(false);
    expect(performance.now() - t0).toBeLessThan(2000);
  });

  it('any one changed character of a link is a message or a valid record, never an exception', async () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    await fc.assert(
      fc.asyncProperty(fc.nat(payload.length - 1), fc.constantFrom(...alphabet), async (at, ch) => {
        const out = await decodeShare(payload.slice(0, at) + ch + payload.slice(at + 1));
        if (!out.ok) expect(out.text.length).toBeGreaterThan(40);
      }),
      { numRuns: 80 },
    );
  });

  it('approval settings in a link are dropped: nothing comes in approved', async () => {
    const out = await decodeShare(await encodeJson(tampered((s) => (s.settings.agent.approval = 'auto'))));
    expect(out.ok).toBe(true);
    if (out.ok) expect(out.session.settings.agent).not.toHaveProperty('approval');
  });
});

describe('session files', () => {
  it.each([
    ['not JSON', 'hello', 'not-json', /The session file is not JSON/],
    ['too large', ' '.repeat(MAX_SESSION_FILE_BYTES + 1), 'too-large', /more than the 33,554,432 a session file may have/],
    ['wrong schema', '{"v": 1}', 'schema', /This is not a valid session record: field /],
  ] as const)('%s', async (_name, text, kind, message) => {
    const out = await parseSessionFile(text);
    expect(out).toMatchObject({ ok: false, kind });
    if (!out.ok) expect(out.text).toMatch(message);
  });
});

describe('link size report', () => {
  it.each([
    [100, true, /^The link is 100 characters\.$/],
    [COMFORTABLE_LINK_CHARS, true, /^The link is 2,000 characters\.$/],
    [COMFORTABLE_LINK_CHARS + 1, false, /2,001 characters, more than the 2,000 many chat apps .* Share the session file \(\.session\.json\) instead\./],
  ])('%d characters', (chars, fits, text) => {
    const report = linkReport('x'.repeat(chars));
    expect(report).toMatchObject({ chars, fits });
    expect(report.text).toMatch(text);
  });
});
