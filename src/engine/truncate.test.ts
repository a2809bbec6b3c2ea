import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { truncateHeadTail } from './truncate.ts';

describe('truncateHeadTail', () => {
  it('leaves text within the cap untouched', () => {
    expect(truncateHeadTail('abc', 3)).toEqual({ text: 'abc', truncated: false, total: 3, omitted: 0 });
  });

  it('keeps head and tail and names the total size', () => {
    const text = Array.from({ length: 2000 }, (_, i) => `line ${i}`).join('\n');
    const t = truncateHeadTail(text, 1000);
    expect(t.truncated).toBe(true);
    expect(t.text.startsWith('line 0\nline 1\n')).toBe(true);
    expect(t.text).toContain('line 1999');
    expect(t.text).toContain(`${text.length} characters in total`);
    expect(t.text).toContain(`[${t.omitted} characters omitted]`);
  });

  it('never exceeds the cap, and head + tail + omitted account for every character', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 0, maxLength: 20000, unit: fc.constantFrom('a', 'b', '\n', 'é') }),
        fc.integer({ min: 400, max: 9000 }),
        (text, cap) => {
          const t = truncateHeadTail(text, cap);
          expect(t.text.length).toBeLessThanOrEqual(cap);
          if (t.truncated) expect(t.omitted).toBeGreaterThan(0);
          else expect(t.text).toBe(text);
        },
      ),
      { numRuns: 300 },
    );
  });
});
