/**
 * The sandbox frame's policy: the hash it allows is the frame's one inline script, the meta tag
 * in the file carries the same policy as the header, and every kind of load but the runtime's
 * own is refused.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SANDBOX_CSP_HEADER, SANDBOX_CSP_META, SANDBOX_SCRIPT_HASH } from './sandbox-csp.ts';

const html = readFileSync(new URL('../../../public/sandbox.html', import.meta.url), 'utf8');

function directives(policy: string): Map<string, string> {
  return new Map(
    policy.split(';').map(
      (d) =>
        d
          .trim()
          .split(/\s+(.*)/s)
          .slice(0, 2) as [string, string],
    ),
  );
}

describe('the sandbox frame policy', () => {
  it('allows exactly the inline script of public/sandbox.html', () => {
    const scripts = [...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)];
    expect(scripts).toHaveLength(1);
    const hash = `sha256-${createHash('sha256').update(scripts[0]![1]!).digest('base64')}`;
    expect(hash, 'the frame script changed: put its new hash in SANDBOX_SCRIPT_HASH and in the meta tag').toBe(
      SANDBOX_SCRIPT_HASH,
    );
  });

  it('is the meta tag of the file too, before its script', () => {
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html);
    expect(meta?.[1]).toBe(SANDBOX_CSP_META);
    expect(html.indexOf('<meta http-equiv')).toBeLessThan(html.indexOf('<script'));
  });

  it.each([
    ['default-src', "'none'"],
    // WebAssembly may compile (Pyodide); eval and every other source stay forbidden.
    ['script-src', `'${SANDBOX_SCRIPT_HASH}' blob: 'wasm-unsafe-eval'`],
    ['worker-src', 'blob:'],
    ['connect-src', "'none'"],
    ['font-src', "'none'"],
    ['img-src', "'none'"],
    ['media-src', "'none'"],
    ['frame-src', "'none'"],
    ['object-src', "'none'"],
    ['style-src', "'none'"],
    ['manifest-src', "'none'"],
    ['base-uri', "'none'"],
    ['form-action', "'none'"],
    ['frame-ancestors', "'self'"],
  ])('header: %s %s', (name, value) => {
    expect(directives(SANDBOX_CSP_HEADER).get(name)).toBe(value);
  });
});
