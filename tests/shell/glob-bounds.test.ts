/**
 * Glob expansion is bounded in total, not only per pattern: the arguments all of a command's
 * patterns expand to are capped in number and in bytes (in the spirit of ARG_MAX) while they are
 * expanded, a command past either cap is refused with a message naming the cap, and expansion
 * and the second judgement run under the call's own deadline. Every row runs on both backends.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Workspace } from '../../src/engine/workspace.ts';
import { MAX_EXPANDED_ARGS, MAX_EXPANDED_BYTES, resolvePlan } from '../../src/engine/tools/plan-run.ts';
import { checkCommand } from '../../src/engine/tools/run-command.ts';
import { BACKENDS, cleanupBackends, shellEngine, shellWorkspace } from '../support/shell-backends.ts';

afterAll(cleanupBackends);

/** 6,000 short names in many/ and at the root, 6,000 names of 120 characters in long/. */
function files(): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < 6000; i++) {
    const n = String(i).padStart(4, '0');
    out[`many/f${n}`] = '';
    out[`f${n}`] = '';
    out[`long/${'l'.repeat(115)}${n}`] = '';
  }
  return out;
}

interface Row {
  readonly what: string;
  readonly command: string;
  readonly timeoutMs: number;
  readonly ok: boolean;
  readonly text: RegExp;
}

const ROWS: readonly Row[] = [
  {
    what: '1,000 stars over 6,000 files (the review case) stop at the argument count',
    command: `echo ${Array(1000).fill('*').join(' ')}`,
    timeoutMs: 5000,
    ok: false,
    text: new RegExp(`more than ${MAX_EXPANDED_ARGS.toLocaleString('en-US')} arguments`),
  },
  {
    what: 'many/* 300 times (the review case) stops at the argument count',
    command: `echo ${Array(300).fill('many/*').join(' ')}`,
    timeoutMs: 5000,
    ok: false,
    text: new RegExp(`more than ${MAX_EXPANDED_ARGS.toLocaleString('en-US')} arguments`),
  },
  {
    what: 'long names stop at the byte total',
    command: 'echo long/* long/*',
    timeoutMs: 5000,
    ok: false,
    text: new RegExp(`more than ${MAX_EXPANDED_BYTES.toLocaleString('en-US')} bytes`),
  },
  {
    what: 'one pattern of 6,000 matches is under both caps and runs',
    command: 'echo many/* | wc -w',
    timeoutMs: 60_000,
    ok: true,
    text: /^\s*6000\n\[exit code 0\]$/,
  },
];

describe.each(BACKENDS)('glob expansion bounds on the %s backend', (kind) => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = await shellWorkspace(kind, files());
  }, 300_000);

  it.each(ROWS)(
    '$what',
    async (row) => {
      const engine = shellEngine(ws);
      const started = Date.now();
      const r = await engine.call('ws_shell', { command: row.command, timeout_ms: row.timeoutMs });
      const took = Date.now() - started;
      expect(r.ok, r.text.slice(0, 300)).toBe(row.ok);
      expect(r.text).toMatch(row.text);
      if (!row.ok) {
        expect(r.text).toMatch(/narrow/);
        // Answered within the call's own timeout (a loaded machine gets twice the time).
        expect(took).toBeLessThan(2 * row.timeoutMs);
      }
    },
    120_000,
  );

  it('a deadline that has passed stops the expansion and says so', async () => {
    const engine = shellEngine(ws);
    const decision = await checkCommand('ls many/*');
    const r = await resolvePlan(engine.ctx, decision.plan!, Date.now() - 1);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.why).toMatch(
      /the pattern "many\/\*" could not be expanded: the timeout ran out while expanding it/,
    );
  });
});
