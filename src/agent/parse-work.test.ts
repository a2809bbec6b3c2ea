/**
 * The JSON scan's work is bounded by the reply's length: replies that open thousands of objects
 * and never close them (each candidate would span the rest of the reply, the square of its length
 * in all) stop at the budget with a refusal that says so, instead of taking minutes; an ordinary
 * reply is read as before, for a few times its length.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import '../../tests/support/fast-check-seed.ts';
import { parseCall, scanJson, SCAN_WORK_PER_CHAR } from './parse.ts';

const TOOLS = ['ws_read'];
/** The budget's floor and the one span that may run past it (matched and parsed: twice its length). */
const bound = (n: number) => SCAN_WORK_PER_CHAR * n + 100_000 + 2 * n;

const tangled: { name: string; raw: string }[] = [
  { name: 'a call’s opening pasted 5,000 times', raw: '{"tool": "ws_read", '.repeat(5000) },
  { name: 'an argument opening 20,000 objects', raw: `{"tool":"ws_read","args":{"path":${'{"a":'.repeat(20_000)}` },
  {
    name: '20,000 nested objects, closed, with a bad value inside',
    raw: `${'{"a":'.repeat(20_000)}x${'}'.repeat(20_000)}`,
  },
  { name: '50,000 bare openings', raw: '{"'.repeat(50_000) },
];

describe('the JSON scan is bounded by the reply length', () => {
  it.each(tangled)('$name: refused, saying the search stopped, within the budget', ({ raw }) => {
    const work = { chars: 0 };
    const started = performance.now();
    scanJson(raw, new Set(TOOLS), work);
    const outcome = parseCall(raw, { tools: TOOLS });
    // Generous: both took from 20 s to over a minute when every candidate was matched and parsed.
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(work.chars).toBeLessThanOrEqual(bound(raw.length));
    expect(outcome).toMatchObject({ ok: false, error: 'invalid-json' });
    expect(outcome.ok ? '' : outcome.message).toContain('the search for a call stopped and nothing was run');
    expect(outcome.ok ? '' : outcome.message).toContain('{"tool": "ws_read", "args": {"path": "src/index.js"}}');
  });

  it('a call in prose is read whole, for about twice its length', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', ' ', '.', '\n', '"') }),
        fc.string({ maxLength: 200 }),
        (prose, path) => {
          const call = JSON.stringify({ tool: 'ws_read', args: { path } });
          const raw = `${prose}\n${call}\n${prose}`;
          const work = { chars: 0 };
          const scan = scanJson(raw, new Set(TOOLS), work);
          expect(scan.stopped).toBe(false);
          expect(work.chars).toBeLessThanOrEqual(2 * call.length);
          expect(parseCall(raw, { tools: TOOLS })).toMatchObject({
            ok: true,
            call: { tool: 'ws_read', args: { path } },
          });
        },
      ),
    );
  });

  it('a call after a few objects that never close is still found', () => {
    const raw = `{"note": "first try",\n{"note": "second try",\n{"tool": "ws_read", "args": {"path": "a.js"}}`;
    expect(parseCall(raw, { tools: TOOLS })).toMatchObject({
      ok: true,
      call: { tool: 'ws_read', args: { path: 'a.js' } },
    });
  });
});
