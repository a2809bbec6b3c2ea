/**
 * bootWebContainer against stand-in page environments: each way it can fail, with the message
 * the notice shows, and the library's one-boot-per-page behaviour (a timed-out attempt is not
 * waited on twice; a failed one may be retried).
 */
import { describe, expect, it } from 'vitest';
import { BOOT_MESSAGES, bootWebContainer, pageEnvironment, type BootEnvironment } from './boot.ts';

interface Stand {
  env: BootEnvironment<string>;
  boots: () => number;
  settle: (how: 'resolve' | 'reject', value: string) => void;
}

/** A page that may be isolated, have SharedArrayBuffer and be online; boot() waits until settled. */
function page(
  over: Partial<Pick<BootEnvironment<string>, 'crossOriginIsolated' | 'hasSharedArrayBuffer' | 'onLine'>> = {},
): Stand {
  let count = 0;
  let settle: Stand['settle'] = () => {
    throw new Error('boot() was not called');
  };
  const env: BootEnvironment<string> = {
    crossOriginIsolated: true,
    hasSharedArrayBuffer: true,
    onLine: true,
    ...over,
    boot: () => {
      count++;
      return new Promise<string>((resolve, reject) => {
        settle = (how, value) => (how === 'resolve' ? resolve(value) : reject(new Error(value)));
      });
    },
  };
  return { env, boots: () => count, settle: (how, value) => settle(how, value) };
}

describe('bootWebContainer: failing fast, before any boot', () => {
  it.each([
    [
      'a page without COOP/COEP',
      { crossOriginIsolated: false, hasSharedArrayBuffer: false },
      'not-isolated',
      BOOT_MESSAGES.notIsolated,
    ],
    [
      'an isolated page without SharedArrayBuffer',
      { hasSharedArrayBuffer: false },
      'unsupported-browser',
      BOOT_MESSAGES.unsupported,
    ],
    ['an offline browser', { onLine: false }, 'offline', BOOT_MESSAGES.offline],
  ] as const)('%s → %s', async (_label, over, reason, message) => {
    const p = page(over);
    expect(await bootWebContainer({ timeoutMs: 5_000 }, p.env)).toEqual({ ok: false, reason, message });
    expect(p.boots()).toBe(0);
  });

  it('a signal aborted before the call', async () => {
    const p = page();
    expect(await bootWebContainer({ signal: AbortSignal.abort() }, p.env)).toEqual({
      ok: false,
      reason: 'error',
      message: BOOT_MESSAGES.cancelled,
    });
    expect(p.boots()).toBe(0);
  });
});

describe('bootWebContainer: the boot itself', () => {
  it('resolves with the instance when the boot does; concurrent callers share one boot', async () => {
    const p = page();
    const a = bootWebContainer({}, p.env);
    const b = bootWebContainer({}, p.env);
    p.settle('resolve', 'wc#1');
    expect(await a).toEqual({ ok: true, wc: 'wc#1' });
    expect(await b).toEqual({ ok: true, wc: 'wc#1' });
    expect(await bootWebContainer({}, p.env)).toEqual({ ok: true, wc: 'wc#1' });
    expect(p.boots()).toBe(1);
  });

  it('a boot that rejects is an error naming why, and may be tried again', async () => {
    const p = page();
    const first = bootWebContainer({}, p.env);
    p.settle('reject', 'Unable to create more instances');
    expect(await first).toEqual({
      ok: false,
      reason: 'error',
      message: BOOT_MESSAGES.error('Unable to create more instances'),
    });
    expect(BOOT_MESSAGES.error('x')).toBe(
      "WebContainer failed to start: x. The run continues on the in-memory workspace, whose shell runs the project's JavaScript tests in a sandbox (no real Node.js, no npm install). Reload the page to try again.",
    );
    const second = bootWebContainer({}, p.env);
    p.settle('resolve', 'wc#2');
    expect(await second).toEqual({ ok: true, wc: 'wc#2' });
    expect(p.boots()).toBe(2);
  });

  it('a boot that never settles times out with the reload advice; asking again answers at once', async () => {
    const p = page();
    const started = Date.now();
    const first = await bootWebContainer({ timeoutMs: 100 }, p.env);
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    expect(first).toEqual({ ok: false, reason: 'timeout', message: BOOT_MESSAGES.timeout(100) });
    expect(BOOT_MESSAGES.timeout(20_000)).toMatch(
      /^WebContainer did not start within 20 s: StackBlitz's servers \(stackblitz\.com\) did not answer/,
    );
    expect(BOOT_MESSAGES.timeout(20_000)).toMatch(
      /Reload the page to try again: the page keeps waiting on its first attempt/,
    );

    const again = Date.now();
    expect(await bootWebContainer({ timeoutMs: 5_000 }, p.env)).toEqual({
      ok: false,
      reason: 'timeout',
      message: BOOT_MESSAGES.stillWaiting,
    });
    expect(Date.now() - again).toBeLessThan(50);
    expect(p.boots()).toBe(1);

    // Should the first attempt arrive after all, the page can use it.
    p.settle('resolve', 'late-wc');
    await Promise.resolve();
    expect(await bootWebContainer({ timeoutMs: 5_000 }, p.env)).toEqual({ ok: true, wc: 'late-wc' });
  });

  it('the browser going offline while booting fails at once, and a second attempt does not wait on the first', async () => {
    const p = page();
    const listeners = new Set<() => void>();
    p.env.onOffline = (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    };
    const first = bootWebContainer({ timeoutMs: 60_000 }, p.env);
    await Promise.resolve();
    expect(listeners.size).toBe(1);
    for (const l of listeners) l();
    expect(await first).toEqual({ ok: false, reason: 'offline', message: BOOT_MESSAGES.offline });
    expect(listeners.size).toBe(0);
    expect(await bootWebContainer({ timeoutMs: 60_000 }, p.env)).toEqual({
      ok: false,
      reason: 'timeout',
      message: BOOT_MESSAGES.stillWaiting,
    });
  });

  it('a signal aborted while booting', async () => {
    const p = page();
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 20);
    expect(await bootWebContainer({ timeoutMs: 5_000, signal: ac.signal }, p.env)).toEqual({
      ok: false,
      reason: 'error',
      message: BOOT_MESSAGES.cancelled,
    });
  });
});

describe('pageEnvironment', () => {
  it('refuses to run where there is no window (a worker, Node)', () => {
    expect(() => pageEnvironment()).toThrow(
      'bootWebContainer runs on the main thread only (WebContainer needs window and document); call it from the page, not a worker',
    );
  });
});
