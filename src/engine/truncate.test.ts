import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { KEPT_LINE_CHARS, MIN_USEFUL_CAP, truncateHeadTail } from './truncate.ts';

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
        fc.integer({ min: 1, max: 9000 }),
        (text, cap) => {
          const t = truncateHeadTail(text, cap);
          // A cap too small for the kept lines and the note is raised, and the note says to what.
          const raised = /the cap of (\d+) was raised to (\d+)/.exec(t.text);
          if (raised) expect(Number(raised[1])).toBe(cap);
          expect(t.text.length).toBeLessThanOrEqual(raised ? Number(raised[2]) : Math.max(cap, text.length));
          if (t.truncated) expect(t.omitted).toBeGreaterThan(0);
          else expect(t.text).toBe(text);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('never cuts inside the first line, the last line or the note, whatever the cap', () => {
    const line = fc.string({ maxLength: KEPT_LINE_CHARS - 1, unit: fc.constantFrom('a', 'b', ' ', '1') });
    fc.assert(
      fc.property(
        line,
        fc.array(line, { minLength: 2, maxLength: 400 }),
        line,
        fc.integer({ min: 1, max: 4000 }),
        (head, body, tail, cap) => {
          const text = [head, ...body, tail].join('\n');
          const t = truncateHeadTail(text, cap);
          if (!t.truncated) return;
          expect(t.text.startsWith(`${head}\n`)).toBe(true);
          const [kept, note] = [t.text.slice(0, t.text.lastIndexOf('\n')), t.text.slice(t.text.lastIndexOf('\n') + 1)];
          expect(kept.endsWith(`\n${tail}`)).toBe(true);
          expect(note).toMatch(/^\[output truncated: .*\]$/);
        },
      ),
      { numRuns: 300 },
    );
  });

  // One row per result the issue names: cut at a small cap, the part a reader needs is whole.
  const rows: [string, string, number, RegExp, RegExp][] = [
    [
      "ws_read's header at 300",
      `[src/strings.js#ab12: lines 1-32 of 32]\n${Array.from({ length: 32 }, (_, i) => `${i + 1}\tconst line${i} = ${i};`).join('\n')}`,
      300,
      /^\[src\/strings\.js#ab12: lines 1-32 of 32\]\n/,
      /\n32\tconst line31 = 31;\n\[output truncated: /,
    ],
    [
      "ws_test's tally line and exit code at 200",
      `npm test: 8 passed, 1 failed (exit code 1)\n${'# Subtest: x\nok 1 - x\n'.repeat(40)}[exit code 1]`,
      200,
      /^npm test: 8 passed, 1 failed \(exit code 1\)\n/,
      /\n\[exit code 1\]\n\[output truncated: .*the cap of 200 was raised to \d+: less would cut the result's first line, its last line or this note\)/,
    ],
  ];
  it.each(rows)('keeps %s', (_name, text, cap, head, tail) => {
    const t = truncateHeadTail(text, cap);
    expect(t.truncated).toBe(true);
    expect(t.text).toMatch(head);
    expect(t.text).toMatch(tail);
  });

  it('needs no raise at the settings minimum for lines up to the kept length', () => {
    const text = `${'h'.repeat(KEPT_LINE_CHARS - 1)}\n${'x\n'.repeat(2000)}${'t'.repeat(KEPT_LINE_CHARS)}`;
    expect(truncateHeadTail(text, MIN_USEFUL_CAP).text).not.toMatch(/was raised/);
  });
});
