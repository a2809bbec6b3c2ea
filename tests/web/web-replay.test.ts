/**
 * A recorded session that used the web tools replays offline: each step's requests and their
 * bytes are in the record, the replay answers them from it (the fixture server sees no request),
 * every result matches, and the replay says so. The specialist settings are recorded with the session.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useNodeWasm } from '../support/node-wasm.ts';
import { createEngine } from '../../src/engine/create.ts';
import { nodeWebTransport } from '../../src/platform/node-web.ts';
import { sessionSchema, type Session } from '../../src/session/record.ts';
import { replaySession } from '../../src/session/replay.ts';
import { formatReplay, stepHeader } from '../../src/session/replay-text.ts';
import { MATH, recordScript, workspaceWith } from '../session/support.ts';
import { startWebFixture, type WebFixture } from '../support/web-fixtures.ts';

let fx: WebFixture;
let session: Session;

beforeAll(async () => {
  useNodeWasm();
  fx = await startWebFixture();
  const settings = {
    specialist_tools: true,
    web_allow_private: true,
    web_search_provider: 'searxng' as const,
    web_search_url: `${fx.base}/searx`,
  };
  session = await recordScript({
    outputs: [
      '{"tool": "web_search", "args": {"query": "widget port"}}',
      `{"tool": "web_fetch", "args": {"url": "${fx.base}/to-article?n=2"}}`,
      `{"tool": "web_fetch", "args": {"url": "${fx.base}/image"}}`,
      '{"tool": "done", "args": {"summary": "found it"}}',
    ],
    workspace: await workspaceWith({ 'src/math.js': MATH }),
    engine: (ws) => createEngine(ws, settings, { outside: { web: nodeWebTransport } }),
  });
});
afterAll(() => fx.close());

describe('a session that used the web tools', () => {
  it('records the settings, and each step the URL and bytes of every request it made', () => {
    expect(sessionSchema.parse(session)).toBeTruthy();
    expect(session.settings.engine).toMatchObject({ specialist_tools: true, web_search_provider: 'searxng' });
    const urls = session.steps.map((s) => (s.web ?? []).map((w) => new URL(w.url).pathname));
    expect(urls).toEqual([['/searx/search'], ['/to-article', '/to-article', '/article'], ['/image'], []]);
    expect(session.steps[1]!.resultText).toContain('Installing the widget');
    expect(session.steps[2]!.resultText).toMatch(/is image\/png, not a text page/);
  });

  it('replays offline from the record, says so, and reaches no server', async () => {
    const before = [...fx.hits.values()].reduce((a, b) => a + b, 0);
    const report = await replaySession(session);
    expect(report.divergence).toBeUndefined();
    expect(report.ok).toBe(true);
    expect([...fx.hits.values()].reduce((a, b) => a + b, 0)).toBe(before);
    expect(report.webFromRecord).toBe(5);
    expect(formatReplay(report)).toMatch(
      /^✓ reproduced: .*; 5 web request\(s\) were answered from the record, offline — nothing was fetched\n$/,
    );
    expect(stepHeader(report.steps[1]!)).toBe(
      '=== step 2 · web_fetch · ✓ · 3 web request(s) answered from the record, not fetched',
    );
  });

  it('a replayed step asking for a page the record lacks diverges instead of fetching', async () => {
    const altered = structuredClone(session);
    altered.steps[1]!.raw = `{"tool": "web_fetch", "args": {"url": "${fx.base}/text"}}`;
    const before = fx.hits.get('/text') ?? 0;
    const report = await replaySession(altered);
    expect(report.ok).toBe(false);
    expect(report.divergence?.index).toBe(2);
    expect(report.steps[1]!.resultText).toMatch(/is not in the session's record, and a replay never fetches/);
    expect(fx.hits.get('/text') ?? 0).toBe(before);
  });
});
