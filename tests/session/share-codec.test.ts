/**
 * The share-link codec: a property round trip over random records, old (version 1) links still
 * opening, links that survive a chat app, and one row per bad link — each becomes a refusal of
 * its own kind that says plainly whether the link is damaged, cut or altered, never an exception.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeWasm } from '../support/node-wasm.ts';
import { RECORD_LIMITS, sharedForm, type Session } from '../../src/session/record.ts';
import { toLinkForm } from '../../src/session/link-form.ts';
import {
  COMFORTABLE_LINK_CHARS,
  decodeShare,
  encodeLinkText,
  encodeSession,
  LINK_V2,
  linkReport,
  linkSession,
  MAX_LINK_CHARS,
  MAX_SESSION_FILE_BYTES,
  parseSessionFile,
  shareUrl,
} from '../../src/session/share-codec.ts';
import type { LinkFault, RefusalKind } from '../../src/session/validate.ts';
import { copy, encodeJson, recordScript } from './support.ts';

let session: Session;
let link: string;
let payload: string;
/** The payload's data, after the version prefix. */
let data: string;

beforeAll(async () => {
  useNodeWasm();
  session = await recordScript();
  link = await shareUrl(session, 'https://example.org/play?x=1#old');
  payload = link.slice(link.indexOf('#s=') + 3);
  data = payload.slice(LINK_V2.length);
});

/** The shared form as a version 1 link carried it: shell output in full, no hash of it. */
function v1SharedForm(s: Session): Session {
  return { ...s, steps: s.steps.map(({ resultText: _t, call: _c, tally: _y, shellHash: _h, ...kept }) => kept) };
}

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
    shellHash: hex12,
    shellFacts: hex12,
    runtime: fc.constantFrom('Node v22.1.0', "the browser's JavaScript sandbox"),
    root: fc.constantFrom('/home/projects/x', '/tmp/slm-1'),
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
    agent: fc.record({
      maxSteps: fc.integer({ min: 1, max: 1000 }),
      contextTokens: fc.integer({ min: 256, max: 65536 }),
      outputTokens: fc.integer({ min: 1, max: 4096 }),
      jsonMode: fc.boolean(),
      stallSteps: fc.integer({ min: 1, max: 20 }),
      maxParseFailures: fc.integer({ min: 1, max: 10 }),
    }),
  }),
  model: fc.record({
    id: fc.string({ maxLength: 40 }),
    kind: fc.constantFrom('webllm' as const, 'openai' as const, 'scripted' as const),
    params: fc.dictionary(
      fc.string({ maxLength: 10 }).filter((k) => k !== '__proto__'),
      fc.oneof(fc.string({ maxLength: 20 }), fc.integer(), fc.boolean()),
    ),
    seed: fc.nat(),
    temperature: fc.integer({ min: 0, max: 20 }).map((t) => t / 10),
  }),
  task: fc.string({ maxLength: 200 }),
  workspace: fc.oneof(
    fc.record({ template: fc.record({ id: fc.constant('starter'), hash: hex12 }) }),
    fc.record({ files: fc.dictionary(path, fc.string({ maxLength: 100 }), { maxKeys: 5 }) }),
  ),
  steps: fc.array(step, { maxLength: 8 }),
});

describe('round trip', () => {
  it('decode(encode(record)) is the record as a link carries it, for random records', async () => {
    await fc.assert(
      fc.asyncProperty(record, async (r) => {
        const s = { ...r, settings: { ...r.settings, engine: session.settings.engine } } as Session;
        const back = await decodeShare(await encodeSession(s));
        expect(back).toEqual({ ok: true, session: await linkSession(s) });
      }),
      { numRuns: 60 },
    );
  });

  it('an old (version 1) link still opens, as the record it carried', async () => {
    const old = v1SharedForm(session);
    expect(old.steps.at(-1)).toHaveProperty('shellOutput');
    expect(await decodeShare(`https://example.org/#s=${await encodeJson(old)}`)).toEqual({ ok: true, session: old });
  });

  it('an engine setting added after the format froze is written only where it is not what its absence means', async () => {
    const withOff = {
      ...session,
      settings: { ...session.settings, engine: { ...session.settings.engine, gutter_strip: false } },
    } as Session;
    expect(toLinkForm(await linkSession(withOff)).s?.engine).toEqual({ gutter_strip: false });
    const back = await decodeShare(await encodeSession(withOff));
    expect(back.ok && back.session.settings.engine.gutter_strip).toBe(false);
    expect(session.settings.engine.gutter_strip).toBe(true);
    expect(toLinkForm(await linkSession(session)).s?.engine?.gutter_strip).toBeUndefined();
    // A link made before the setting existed carries no such key: it opens as on, what every build then did.
    const { gutter_strip: _g, ...before } = session.settings.engine;
    const old = await decodeShare(
      await encodeSession({
        ...session,
        settings: { ...session.settings, engine: before as Session['settings']['engine'] },
      }),
    );
    expect(old.ok && old.session.settings.engine.gutter_strip).toBe(true);
  });

  it('writes version 2: the prefix, then base64url', () => {
    expect(payload.startsWith(LINK_V2)).toBe(true);
    expect(data).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('drops an own __proto__ key instead of carrying it into the record', async () => {
    const hostile = JSON.parse(
      JSON.stringify(sharedForm(session)).replace('"params":{', '"params":{"__proto__":{"polluted":true},'),
    ) as Session;
    const back = await decodeShare(await encodeJson(hostile));
    expect(back.ok).toBe(true);
    if (back.ok) expect(Object.hasOwn(back.session.model.params, '__proto__')).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('accepts a full link, the hash alone, s=… and the bare string, and replaces any old hash', async () => {
    expect(link.startsWith('https://example.org/play?x=1#s=')).toBe(true);
    for (const input of [
      link,
      `#s=${payload}`,
      `s=${payload}`,
      payload,
      `  ${link}\n`,
      `https://example.org/#a=1&s=${payload}`,
      // Pasted out of prose: a closing parenthesis, a full stop or a comma after the link is not part of it.
      `${link})`,
      `${link}.`,
      `${link},`,
      `(see ${link}).`.slice(5),
    ]) {
      expect(await decodeShare(input), input.slice(0, 40)).toEqual({ ok: true, session: await linkSession(session) });
    }
  });

  it('the shared form drops what replay recomputes and keeps raw outputs and hashes', () => {
    const shared = sharedForm(session);
    // This run's one shell step (done's final test run) found no test command: its output is left out, its hash kept.
    const kept = (s: object) =>
      ['raw', 'resultHash', 'workspaceHash', 'backend', 'shellHash', 'shellFacts', 'runtime', 'root'].filter(
        (k) => k in s,
      );
    expect(shared.steps.map((s) => Object.keys(s).sort())).toEqual(session.steps.map((s) => kept(s).sort()));
    expect(session.steps.every((s) => typeof s.resultText === 'string' && s.call !== undefined)).toBe(true);
  });

  it.each([
    ['a command that ran: its hash, not its output', '$ npm test\n3 passed', false],
    [
      'a command that could not run: its output, which tells a replay to run none',
      '[this memory workspace was created without a process runner, so no command can run in it]',
      true,
    ],
  ])('the shared form of a shell step keeps %s', (_name, shellOutput, keepsOutput) => {
    const step = {
      raw: 'x',
      resultHash: 'a'.repeat(12),
      workspaceHash: 'b'.repeat(12),
      backend: 'memory',
      shellOutput,
      shellHash: 'c'.repeat(12),
    };
    const shared = sharedForm({ ...session, steps: [step] }).steps[0]!;
    expect(shared.shellHash).toBe('c'.repeat(12));
    expect('shellOutput' in shared).toBe(keepsOutput);
  });

  it('a session file (the full form) reads back whole', async () => {
    expect(await parseSessionFile(JSON.stringify(session))).toEqual({ ok: true, session });
  });
});

/** A valid record with one change applied. */
function tampered(change: (s: Record<string, any>) => void): Record<string, unknown> {
  const s = copy(session) as Record<string, any>;
  change(s);
  return s;
}

/** A version 2 link whose compact form was changed and then framed again: intact, but altered. */
async function reframed(change: (f: Record<string, any>) => void): Promise<string> {
  const form = copy(toLinkForm(await linkSession(session))) as Record<string, any>;
  change(form);
  return encodeLinkText(JSON.stringify(form));
}

/** Text long enough to be taken for a link's data, that is no session. */
const PROSE = 'This is plain text, not a session record: 0123456789 the quick brown fox jumps over the lazy dog.';

/** `data` with the character at `at` replaced by another of the alphabet. */
function changedAt(at: number): string {
  return LINK_V2 + data.slice(0, at) + (data[at] === 'A' ? 'B' : 'A') + data.slice(at + 1);
}

describe('bad links become messages', () => {
  // Each row: the input (built lazily, from the good link or a crafted record) → refusal kind, the link's fault, and what the message must say.
  const rows: [string, () => Promise<string> | string, RefusalKind, LinkFault | null, RegExp][] = [
    [
      'a page link without #s=',
      () => 'https://example.org/play',
      'not-a-link',
      null,
      /not a session link: it has no #s=/,
    ],
    ['a hash without s=', () => 'https://example.org/#x=1', 'not-a-link', null, /its "#" part has no s=/],
    ['empty input', () => '', 'not-a-link', null, /it is empty/],
    [
      'a word that is no session',
      () => 'https://example.org/#s=hello',
      'not-a-link',
      null,
      /^This is not a session link: its data, "hello", is 5 characters, far fewer than any session needs\./,
    ],
    [
      'a tampered character outside the alphabet',
      () => link.slice(0, -10) + '!' + link.slice(-9),
      'bad-characters',
      'damaged',
      /^The session link is damaged: it contains "!" \(U\+0021\) at position \d+/,
    ],
    ['a space inside', () => `${payload.slice(0, 20)} ${payload.slice(20)}`, 'bad-characters', 'damaged', /U\+0020/],
    [
      'one character changed in its data',
      () => changedAt(Math.floor(data.length / 2)),
      'corrupt',
      'damaged',
      /^The session link is damaged: one or more of its characters were changed \(its check value does not match its data\)\./,
    ],
    [
      'one character changed in its length',
      () => changedAt(1),
      'corrupt',
      'damaged',
      /^The session link is damaged: a character near its start was changed/,
    ],
    [
      'text pasted after it',
      () => `${payload}Thanks42`,
      'corrupt',
      'damaged',
      /^The session link is damaged: it has more characters than it was made with/,
    ],
    [
      'cut to an impossible length',
      () => LINK_V2 + data.slice(0, data.length - ((data.length - 1) % 4)),
      'truncated',
      'cut',
      /^The session link is cut short: its data stops in the middle of a character group/,
    ],
    [
      'cut in half',
      () => `#s=${LINK_V2}${data.slice(0, Math.floor(data.length / 8) * 4)}`,
      'truncated',
      'cut',
      /^The session link is cut short: it holds [\d,]+ of its [\d,]+ bytes of data\. Chat apps/,
    ],
    [
      'nothing after s=',
      () => 'https://example.org/#s=',
      'truncated',
      'cut',
      /^The session link is cut short: nothing follows "#s="/,
    ],
    [
      're-encoded with a bad hash',
      () => reframed((f) => (f.p[1].h = 'not a hash')),
      'schema',
      'altered',
      /^The session link was altered: it arrived intact, but it is not a session record \(field p\.1: a hash is not 8 base64url characters\)/,
    ],
    [
      're-encoded without a task',
      () => reframed((f) => delete f.t),
      'schema',
      'altered',
      /^The session link was altered: it arrived intact, but this is not a valid session record: field task: /,
    ],
    [
      're-encoded with a starting file outside the root',
      () => reframed((f) => (f.w = { files: { '../x': 'escape' } })),
      'path',
      'altered',
      /^The session link was altered: it arrived intact, but the session was not opened: .*"\.\.\/x", which the workspace refuses/,
    ],
    [
      'framed, but not JSON',
      () => encodeLinkText(PROSE),
      'not-json',
      'altered',
      /^The session link was altered: it arrived intact, but its data is not a session record/,
    ],
    [
      'a newer format version',
      () => reframed((f) => (f.v = 2)),
      'newer-version',
      null,
      /format v2, newer than this build reads \(v1\)/,
    ],
    [
      'a link longer than the cap',
      () => 'A'.repeat(MAX_LINK_CHARS + 1),
      'too-large',
      null,
      /more than the 1,000,000 a session link may have/,
    ],
    // Version 1 links: no check value, so the inflater and the parser tell what is wrong.
    [
      'v1: bytes that are not deflate data',
      () => '_'.repeat(40),
      'corrupt',
      'damaged',
      /^The session link is damaged: its data does not decompress/,
    ],
    [
      'v1: cut in half',
      () => encodeJson(v1SharedForm(session)).then((p) => `#s=${p.slice(0, Math.floor(p.length / 8) * 4)}`),
      'truncated',
      'cut',
      /cut short: its data ends before the session does/,
    ],
    [
      'v1: a bomb, a few KB that inflate past 2 MB',
      () => encodeJson(`{"v":1,"task":"${'a'.repeat(3_000_000)}"}`),
      'bomb',
      null,
      /expands to more than 2 MB/,
    ],
    [
      'v1: deflate of something that is not JSON',
      () => encodeJson(PROSE),
      'not-json',
      'damaged',
      /^The session link is damaged: its data decompresses, but not to a session record/,
    ],
    [
      'v1: a newer format version',
      async () => encodeJson(tampered((s) => (s.v = 2))),
      'newer-version',
      null,
      /format v2, newer than this build reads \(v1\)/,
    ],
    [
      'v1: a bad hash, named by field',
      async () => encodeJson(tampered((s) => (s.steps[1].resultHash = 'xyz'))),
      'schema',
      'altered',
      /^The session link was altered: its data reads, but this is not a valid session record: field steps\.1\.resultHash: must be 12 lowercase hex digits/,
    ],
    ['v1: a missing task', async () => encodeJson(tampered((s) => delete s.task)), 'schema', 'altered', /field task: /],
    [
      'v1: no version at all',
      async () => encodeJson({ hello: PROSE }),
      'schema',
      'altered',
      /field v: .*\(and \d+ more problems\)/,
    ],
    ['v1: a JSON array', async () => encodeJson([PROSE, PROSE.length]), 'schema', 'altered', /field the top level/],
    [
      'v1: too many steps',
      async () => encodeJson(tampered((s) => (s.steps = Array(RECORD_LIMITS.steps + 1).fill(s.steps[0])))),
      'schema',
      'altered',
      /field steps: /,
    ],
    [
      'v1: a starting file outside the root',
      async () => encodeJson(tampered((s) => (s.workspace = { files: { '../x': 'escape' } }))),
      'path',
      'altered',
      /"\.\.\/x", which the workspace refuses — path refused/,
    ],
    [
      'v1: a starting file in the harness dir',
      async () => encodeJson(tampered((s) => (s.workspace = { files: { '.slmcode/hooks.json': '{}' } }))),
      'path',
      'altered',
      /"\.slmcode\/hooks\.json".*harness control state/s,
    ],
    [
      'v1: an absolute starting file',
      async () => encodeJson(tampered((s) => (s.workspace = { files: { '/etc/passwd': '' } }))),
      'path',
      'altered',
      /absolute path/,
    ],
    [
      'v1: a starting file spelled two ways',
      async () => encodeJson(tampered((s) => (s.workspace = { files: { 'src//a.js': '' } }))),
      'path',
      'altered',
      /not written in normal form \(the workspace would store it as "src\/a\.js"\)/,
    ],
  ];

  it.each(rows)('%s', async (_name, input, kind, fault, message) => {
    const out = await decodeShare(await input());
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.kind).toBe(kind);
    expect(out.fault ?? null).toBe(fault);
    expect(out.text).toMatch(message);
    // The parser's own words ("Expected ',' or '}' … at position 1637") are never the message.
    expect(out.text).not.toMatch(/Unexpected token|Expected .* in JSON|at position \d+ \(line/);
    // Every refusal says what to do instead: the file, the original file, or a newer build.
    expect(out.text).toMatch(
      /Ask for the session file \(\.session\.json\)|ask for the file as it was recorded|Open it in a newer/,
    );
  });

  it('a bomb is stopped while inflating: the input is small and decoding stays fast', async () => {
    const bomb = await encodeJson(`{"v":1,"task":"${'a'.repeat(50_000_000)}"}`);
    expect(bomb.length).toBeLessThan(70_000);
    const t0 = performance.now();
    expect((await decodeShare(bomb)).ok).toBe(false);
    expect(performance.now() - t0).toBeLessThan(2000);
  });

  it('any one changed character of a link is called damaged (or, in the spare bits of the last one, changes nothing)', async () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    await fc.assert(
      fc.asyncProperty(fc.nat(data.length - 1), fc.constantFrom(...alphabet), async (at, ch) => {
        if (data[at] === ch) return;
        const out = await decodeShare(LINK_V2 + data.slice(0, at) + ch + data.slice(at + 1));
        if (out.ok) expect(at).toBe(data.length - 1);
        else expect(out.fault, out.text).toBe('damaged');
      }),
      { numRuns: 80, seed: 15 },
    );
  });

  it('approval settings in a link are dropped: nothing comes in approved', async () => {
    const out = await decodeShare(await encodeJson(tampered((s) => (s.settings.agent.approval = 'auto'))));
    expect(out.ok).toBe(true);
    if (out.ok) expect(out.session.settings.agent).not.toHaveProperty('approval');
  });
});

/** What GitHub-flavoured Markdown's autolinker (and the chat apps that follow it) keeps of a link: trailing ?!.,:*_~ are dropped. */
function chatAppKeeps(link: string): string {
  return link.replace(/[?!.,:*_~]+$/, '');
}

describe('links in a chat app', () => {
  it('use only URL-safe characters and end in a letter or digit, so nothing is dropped, for random records', async () => {
    await fc.assert(
      fc.asyncProperty(record, async (r) => {
        const s = { ...r, settings: { ...r.settings, engine: session.settings.engine } } as Session;
        const url = await shareUrl(s, 'https://example.org/');
        expect(url).toMatch(/^https:\/\/example\.org\/#s=2\.[A-Za-z0-9_-]*[A-Za-z0-9]$/);
        expect(chatAppKeeps(url)).toBe(url);
        expect((await decodeShare(chatAppKeeps(url))).ok).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it('the rule drops what it should', () => {
    expect(chatAppKeeps('https://example.org/#s=2.abc_')).toBe('https://example.org/#s=2.abc');
    expect(chatAppKeeps('https://example.org/#s=2.abc.')).toBe('https://example.org/#s=2.abc');
  });
});

describe('session files', () => {
  it.each([
    ['not JSON', 'hello', 'not-json', /The session file is not JSON/],
    [
      'too large',
      ' '.repeat(MAX_SESSION_FILE_BYTES + 1),
      'too-large',
      /more than the 33,554,432 a session file may have/,
    ],
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
    [
      COMFORTABLE_LINK_CHARS + 1,
      false,
      /2,001 characters, more than the 2,000 many chat apps .* Share the session file \(\.session\.json\) instead\./,
    ],
  ])('%d characters', (chars, fits, text) => {
    const report = linkReport('x'.repeat(chars));
    expect(report).toMatchObject({ chars, fits });
    expect(report.text).toMatch(text);
  });
});
