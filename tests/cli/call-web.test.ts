/** The web tools through the real `slm call` and `slm batch`, against a loopback fixture, with the settings the contract names. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, runCli, tempRoot } from './cli-process.ts';
import { startWebFixture, type WebFixture } from '../support/web-fixtures.ts';

let root: string;
let fx: WebFixture;
beforeAll(async () => {
  root = await tempRoot();
  fx = await startWebFixture();
});
afterAll(async () => {
  await fx.close();
  await cleanup();
});

describe('slm call with the web tools', () => {
  it('web_fetch reads a page as Markdown with an outside note, and web_allow_private is what lets it reach loopback', async () => {
    const url = `${fx.base}/article`;
    const allowed = await runCli([
      'call',
      'web_fetch',
      JSON.stringify({ url }),
      '--root',
      root,
      '--json',
      '--settings',
      '{"web_allow_private": true}',
    ]);
    expect(allowed.code).toBe(0);
    const answer = JSON.parse(allowed.stdout) as {
      ok: boolean;
      text: string;
      notes: { kind: string; detail?: string }[];
    };
    expect(answer.text).toContain('Run `npm install widget`');
    expect(answer.notes).toContainEqual(expect.objectContaining({ kind: 'outside', detail: 'web' }));

    const refused = await runCli(['call', 'web_fetch', JSON.stringify({ url }), '--root', root]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/127\.0\.0\.1 is a loopback or private-network address/);
  }, 60_000);

  it('web_search asks the SearXNG instance the settings name', async () => {
    const settings = { web_allow_private: true, web_search_provider: 'searxng', web_search_url: `${fx.base}/searx` };
    const r = await runCli([
      'call',
      'web_search',
      '{"query":"widget"}',
      '--root',
      root,
      '--settings',
      JSON.stringify(settings),
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/from SearXNG for "widget"/);
  }, 60_000);

  it('a wrong web setting is a usage error naming what it must be', async () => {
    const r = await runCli([
      'call',
      'web_search',
      '{"query":"x"}',
      '--root',
      root,
      '--settings',
      '{"web_search_provider":"bing"}',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/web_search_provider must be one of "duckduckgo", "searxng", not "bing"/);
  }, 60_000);
});
