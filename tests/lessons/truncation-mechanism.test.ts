/**
 * The truncation mechanism is recognised in both forms the engine writes: output cut here, and
 * a command's output capped while it ran and cut again (named by what the command wrote).
 */
import { describe, expect, it } from 'vitest';
import { viewExec } from '../../src/engine/exec-output.ts';
import { detectMechanisms } from '../../src/session/mechanisms.ts';

const base = { exitCode: 0, output: '', totalBytes: 0, truncated: false, timedOut: false };
const opts = { command: 'seq 1 90000', timeoutMs: 1000, timeoutCapMs: 600_000, budget: 2000 };
const output = Array.from({ length: 3000 }, (_, i) => `${i}`).join('\n');

describe('the truncated mechanism', () => {
  it.each([
    ['cut here', { ...base, output, totalBytes: output.length }],
    ['capped while it ran, then cut', { ...base, output, truncated: true, totalBytes: 528_894 }],
  ])('%s', (_name, run) => {
    const v = viewExec(run, opts);
    expect(detectMechanisms({ tool: 'ws_shell', text: v.text, notes: v.notes, ok: true })).toContain('truncated');
  });
});
