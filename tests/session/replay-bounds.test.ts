/**
 * A replay is bounded in total, not only per call: a record's timeouts are clamped to this
 * build's defaults and the whole replay has a deadline; the report says both. One row per rule.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeWasm } from '../support/node-wasm.ts';
import { DEFAULT_SETTINGS } from '../../src/engine/settings.ts';
import { replaySession } from '../../src/session/replay.ts';
import { formatReplay } from '../../src/session/replay-text.ts';
import { clampTimeouts } from '../../src/session/replay-bounds.ts';
import type { Session } from '../../src/session/record.ts';
import { recordScript } from './support.ts';

let session: Session;
beforeAll(async () => {
  useNodeWasm();
  session = await recordScript();
});

describe('replay bounds', () => {
  it.each([
    { key: 'shell_timeout', given: 600_000, to: DEFAULT_SETTINGS.shell_timeout },
    { key: 'shell_timeout_cap', given: 600_000, to: DEFAULT_SETTINGS.shell_timeout_cap },
    { key: 'web_timeout', given: 600_000, to: DEFAULT_SETTINGS.web_timeout },
    { key: 'shell_timeout', given: 5_000, to: 5_000 },
  ] as const)('$key $given is replayed as $to', ({ key, given, to }) => {
    const { settings, clamped } = clampTimeouts({ ...DEFAULT_SETTINGS, [key]: given });
    expect(settings[key]).toBe(to);
    expect(clamped.length).toBe(given === to ? 0 : 1);
  });

  it("a record's long timeouts are clamped, and the report says so", async () => {
    const long = structuredClone(session);
    long.settings.engine = { ...long.settings.engine, shell_timeout: 600_000, shell_timeout_cap: 600_000 };
    const report = await replaySession(long);
    expect(report.bounds).toBe(
      "the record's timeouts were clamped to this replay's defaults (shell_timeout 600000 ms → 120000 ms); the whole replay had a deadline of 600 s",
    );
    expect(formatReplay(report)).toContain(`\nbounds: ${report.bounds}`);
  });

  it('a replay that reaches its deadline stops there and says so', async () => {
    const report = await replaySession(session, { deadlineMs: 1 });
    expect(report.ok).toBe(false);
    expect(report.steps.length).toBeLessThan(session.steps.length);
    expect(report.bounds).toBe('the replay stopped at its deadline of 1 ms: the steps after it were not replayed');
    // The missing step says what ended the replay, not that a person stopped it.
    expect(report.divergence?.why).toMatch(/\(it reached the whole replay's deadline of 1 ms\)/);
    expect(formatReplay(report)).toMatch(/bounds: the replay stopped at its deadline/);
  });

  it('a replay within its bounds says nothing more', async () => {
    const report = await replaySession(session);
    expect(report.ok).toBe(true);
    expect(report.bounds).toBeUndefined();
  });
});
