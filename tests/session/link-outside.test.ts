/**
 * Share links carry the web and MCP answers a session recorded: a round trip over random
 * exchanges (text and binary bodies, MCP listings, calls and failures), a recorded session with
 * a web_fetch step and an mcp_call step whose link replays ✓ at every step without contacting
 * anything, tampered answers caught by the replay check, and the link's report naming what
 * the answers add to its length — one row per rule.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeMcp } from '../../src/cli/mcp-node.ts';
import { createEngine } from '../../src/engine/create.ts';
import { toBase64 } from '../../src/engine/web/web-log.ts';
import { nodeWebTransport } from '../../src/platform/node-web.ts';
import { fromLinkForm, toLinkForm } from '../../src/session/link-form.ts';
import type { RecordedStep, Session } from '../../src/session/record.ts';
import { replaySession } from '../../src/session/replay.ts';
import { formatReplay } from '../../src/session/replay-text.ts';
import {
  COMFORTABLE_LINK_CHARS,
  decodeShare,
  encodeLinkText,
  encodeSession,
  linkReport,
  linkSession,
  MAX_LINK_CHARS,
  shareLink,
} from '../../src/session/share-codec.ts';
import { startMcpFixture, type McpFixture } from '../support/mcp/http-fixture.ts';
import { useNodeWasm } from '../support/node-wasm.ts';
import { startWebFixture, type WebFixture } from '../support/web-fixtures.ts';
import { copy, MATH, recordScript, workspaceWith } from './support.ts';

let fx: WebFixture;
let mcp: McpFixture;
let session: Session;

beforeAll(async () => {
  useNodeWasm();
  fx = await startWebFixture();
  mcp = await startMcpFixture();
  session = await recordScript({
    outputs: [
      `{"tool": "web_fetch", "args": {"url": "${fx.base}/article"}}`,
      JSON.stringify({ tool: 'mcp_call', args: { server: 'docs', tool: 'echo', arguments: { text: 'port 4711' } } }),
      `{"tool": "web_fetch", "args": {"url": "${fx.base}/image"}}`,
      '{"tool": "done", "args": {"summary": "the port is 4711"}}',
    ],
    workspace: await workspaceWith({ 'src/math.js': MATH }),
    engine: (ws) =>
      createEngine(
        ws,
        {
          specialist_tools: true,
          web_allow_private: true,
          mcp_servers: [{ name: 'docs', url: `${mcp.base}/mcp`, read_only: true }],
        },
        { outside: { web: nodeWebTransport, mcp: nodeMcp() } },
      ),
  });
});
afterAll(async () => {
  await fx.close();
  await mcp.close();
});

/** Every request either fixture has seen so far. */
const contacts = () => [...fx.hits.values(), ...mcp.requests.values()].reduce((a, b) => a + b, 0);

/** A link made from `session`'s link form after `change` edits it, framed as this build frames links. */
async function tamperedLink(change: (form: ReturnType<typeof toLinkForm>) => void): Promise<string> {
  const form = copy(toLinkForm(await linkSession(session)));
  change(form);
  return encodeLinkText(JSON.stringify(form));
}

describe('a link carries the recorded outside answers', () => {
  it('the session recorded a web answer on the fetches and MCP answers on the call', () => {
    expect(session.steps[0]!.web?.map((w) => new URL(w.url).pathname)).toEqual(['/article']);
    expect(session.steps[1]!.mcp?.some((m) => m.tool === 'echo' && m.answer?.text.includes('port 4711'))).toBe(true);
    expect(session.steps[2]!.web?.[0]?.headers?.['content-type']).toBe('image/png');
  });

  it('a UTF-8 page travels as its text, a binary body as base64, an MCP answer as recorded', async () => {
    const form = toLinkForm(await linkSession(session));
    expect(form.p[0]!.W?.[0]).toMatchObject({ t: expect.stringContaining('Installing the widget') });
    expect(form.p[0]!.W?.[0]).not.toHaveProperty('body');
    expect(form.p[2]!.W?.[0]).toMatchObject({ body: session.steps[2]!.web![0]!.body });
    expect(form.p[1]!.M).toEqual(session.steps[1]!.mcp);
    expect(form.p[3]!.W).toBeUndefined();
  });

  it('decodes to the record as the session file has it', async () => {
    const back = await decodeShare(await encodeSession(session));
    expect(back.ok).toBe(true);
    if (!back.ok) return;
    expect(back.session).toEqual(await linkSession(session));
    expect(back.session.steps.map((s) => s.web)).toEqual(session.steps.map((s) => s.web));
    expect(back.session.steps.map((s) => s.mcp)).toEqual(session.steps.map((s) => s.mcp));
  });

  it("the link's replay is ✓ at every step and contacts neither the web server nor the MCP server", async () => {
    const back = await decodeShare(await encodeSession(session));
    if (!back.ok) throw new Error(back.text);
    const before = contacts();
    const report = await replaySession(back.session);
    expect(report.divergence).toBeUndefined();
    expect(report.ok).toBe(true);
    expect(report.steps.map((s) => [s.index, s.divergence, s.equivalent])).toEqual(
      [1, 2, 3, 4].map((i) => [i, undefined, undefined]),
    );
    // Each step answered from the link exactly what it recorded (step 1 also lists the server's tools for the prompt).
    expect(report.steps.map((s) => [s.webFromRecord ?? 0, s.mcpFromRecord ?? 0])).toEqual(
      session.steps.map((s) => [s.web?.length ?? 0, s.mcp?.length ?? 0]),
    );
    expect(report.webFromRecord).toBe(2);
    expect(contacts()).toBe(before);
    expect(formatReplay(report)).toMatch(/answered from the record, offline/);
  });
});

describe('tampered answers are caught by the replay check', () => {
  it.each([
    [
      'a word of the fetched page',
      1,
      (f: ReturnType<typeof toLinkForm>) => {
        const w = f.p[0]!.W![0]!;
        w.t = w.t!.replace('4711', '4712');
      },
    ],
    [
      "the MCP call's answer",
      2,
      (f: ReturnType<typeof toLinkForm>) => {
        for (const m of f.p[1]!.M as { answer?: { text: string } }[])
          if (m.answer) m.answer.text = m.answer.text.replace('4711', '4712');
      },
    ],
    [
      "the binary body's bytes",
      3,
      (f: ReturnType<typeof toLinkForm>) => {
        f.p[2]!.W![0]!.body = toBase64(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4]));
        f.p[2]!.W![0]!.headers = { 'content-type': 'text/plain' };
      },
    ],
    [
      'a removed web answer',
      1,
      (f: ReturnType<typeof toLinkForm>) => {
        delete f.p[0]!.W;
      },
    ],
  ])('%s: the link opens, and its replay diverges at step %d', async (_what, at, change) => {
    const opened = await decodeShare(await tamperedLink(change));
    expect(opened.ok).toBe(true);
    if (!opened.ok) return;
    const before = contacts();
    const report = await replaySession(opened.session);
    expect(report.ok).toBe(false);
    expect(report.divergence?.index).toBe(at);
    expect(contacts()).toBe(before);
  });

  it('a web answer carrying its body twice is refused as altered', async () => {
    const out = await decodeShare(
      await tamperedLink((f) => {
        f.p[0]!.W![0]!.body = toBase64(new Uint8Array([1]));
      }),
    );
    expect(out).toMatchObject({ ok: false, fault: 'altered' });
    if (!out.ok) expect(out.text).toMatch(/field p\.0\.W: exchange 1 carries its body twice/);
  });

  it('a malformed MCP answer is refused by the record gate', async () => {
    const out = await decodeShare(
      await tamperedLink((f) => {
        f.p[1]!.M = [{ server: 7 }];
      }),
    );
    expect(out.ok).toBe(false);
  });
});

const bytes = fc.uint8Array({ maxLength: 64 });
const webExchange = fc.oneof(
  fc
    .record(
      {
        url: fc.webUrl(),
        status: fc.integer({ min: 100, max: 599 }),
        headers: fc.record({ 'content-type': fc.constantFrom('text/html', 'image/png') }, { requiredKeys: [] }),
        body: fc.oneof(
          bytes,
          fc.string({ unit: 'binary', maxLength: 64 }).map((t) => new TextEncoder().encode(t)),
        ),
      },
      { requiredKeys: ['url'] },
    )
    .map(({ body, ...e }) => ({ ...e, ...(body !== undefined && { body: toBase64(body) }) })),
  fc.record({ url: fc.webUrl(), failure: fc.record({ code: fc.constant('timeout'), text: fc.string() }) }),
);
const mcpExchange = fc.oneof(
  fc.record({
    server: fc.constantFrom('docs', 'writer'),
    tool: fc.constantFrom('echo', 'write'),
    arguments: fc.json(),
    answer: fc.record({ text: fc.string({ unit: 'binary' }), isError: fc.boolean(), bytes: fc.nat(1000) }),
  }),
  fc.record({
    server: fc.constant('docs'),
    tools: fc.array(fc.record({ name: fc.string({ minLength: 1 }), description: fc.string() }), { maxLength: 3 }),
  }),
);

describe('round trip', () => {
  it('any recorded web and MCP exchanges come back from a link as they were recorded', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({ web: fc.array(webExchange, { maxLength: 3 }), mcp: fc.array(mcpExchange, { maxLength: 3 }) }),
          {
            minLength: 1,
            maxLength: 3,
          },
        ),
        async (answers) => {
          const steps: RecordedStep[] = answers.map((a, i) => ({ ...session.steps[0]!, raw: `step ${i}`, ...a }));
          const s: Session = { ...session, steps };
          const read = fromLinkForm(JSON.parse(JSON.stringify(toLinkForm(await linkSession(s)))));
          expect(read.ok && (read.record as Session).steps.map(({ web, mcp }) => ({ web, mcp }))).toEqual(answers);
          const back = await decodeShare(await encodeSession(s));
          expect(back).toEqual({ ok: true, session: await linkSession(s) });
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe("the link's report", () => {
  it('names the answers the link carries and the characters they add', async () => {
    const { url, report } = await shareLink(session, 'https://example.org/');
    const without = await shareLink(
      { ...session, steps: session.steps.map(({ web: _w, mcp: _m, ...s }) => s) },
      'https://example.org/',
    );
    const answers = session.steps.reduce((n, s) => n + (s.web?.length ?? 0) + (s.mcp?.length ?? 0), 0);
    expect(report.chars).toBe(url.length);
    expect(report.text).toContain(
      `It carries the ${answers} web and MCP answers the session recorded (${(url.length - without.url.length).toLocaleString('en-US')} of its characters)`,
    );
    expect(without.report.text).not.toMatch(/web and MCP/);
  });

  it.each([
    [
      COMFORTABLE_LINK_CHARS,
      true,
      /^The link is 2,000 characters\. It carries the 3 web and MCP answers .* offline\.$/,
    ],
    [
      COMFORTABLE_LINK_CHARS + 1,
      false,
      /more than the 2,000 many chat apps .* It carries the 3 web and MCP answers .*\. Share the session file \(\.session\.json\) instead\.$/,
    ],
    [
      MAX_LINK_CHARS + 1,
      false,
      /more than the 1,000,000 a session link may have: it would not open anywhere\. It carries .* Share the session file \(\.session\.json\) instead\.$/,
    ],
  ])('%d characters with answers', (chars, fits, text) => {
    const report = linkReport('x'.repeat(chars), { answers: 3, chars: 900 });
    expect(report).toMatchObject({ chars, fits });
    expect(report.text).toMatch(text);
  });
});
