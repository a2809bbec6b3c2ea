import { describe, expect, it } from 'vitest';
import { speedText } from './speed-text.ts';

describe('speedText', () => {
  it.each([
    [
      {
        ttftMs: 1200,
        elapsedMs: 3400,
        prefillTps: 312.4,
        decodeTps: 14.25,
        cachedTokens: 900,
        source: 'engine' as const,
      },
      /^first token 1\.2 s · prefill 312 tok\/s · decode 14\.3 tok\/s · 900 prompt tokens from the KV cache · 3\.4 s in all \(engine timings\)$/,
    ],
    [{ ttftMs: 80, elapsedMs: 500, source: 'clock' as const }, /^first token 80 ms · 500 ms in all$/],
    [
      { ttftMs: 80, elapsedMs: 500, decodeTps: 9, cachedTokens: 0, source: 'clock' as const },
      /^first token 80 ms · decode 9\.0 tok\/s · 500 ms in all$/,
    ],
  ])('%j', (speed, expected) => expect(speedText(speed)).toMatch(expected));
});
