/** Hash routes: parsing, formatting, and the router following and writing the address. */
import { describe, expect, it } from 'vitest';
import { formatHash, parseHash, Router, type RouterWindow } from './router.svelte.ts';

describe('parseHash', () => {
  it.each([
    ['', { page: 'start', step: null }],
    ['#/', { page: 'start', step: null }],
    ['#/run', { page: 'run', step: null }],
    ['#/run?step=5', { page: 'run', step: 5 }],
    ['#/run/?step=12', { page: 'run', step: 12 }],
    ['#/run?step=0', { page: 'run', step: null }],
    ['#/run?step=-2', { page: 'run', step: null }],
    ['#/run?step=2.5', { page: 'run', step: null }],
    ['#/run?step=abc', { page: 'run', step: null }],
    ['#/run?step=99999999999999999999', { page: 'run', step: null }],
    ['#/console', { page: 'console', step: null }],
    ['#/console?step=3', { page: 'console', step: null }],
    ['#/nowhere', { page: 'start', step: null }],
    [
      '#/compare?a=example:drifted-edit&b=lesson:the-jail&row=2',
      { page: 'compare', step: null, query: 'a=example:drifted-edit&b=lesson:the-jail&row=2' },
    ],
    ['#/compare', { page: 'compare', step: null, query: '' }],
    ['#/eval?x=1?y', { page: 'eval', step: null, query: 'x=1?y' }],
  ])('%s', (hash, route) => {
    expect(parseHash(hash)).toEqual(route);
  });

  it.each([
    [{ page: 'start', step: null }, '#/'],
    [{ page: 'run', step: null }, '#/run'],
    [{ page: 'run', step: 4 }, '#/run?step=4'],
    [{ page: 'console', step: null }, '#/console'],
    [{ page: 'compare', step: null, query: 'a=saved:1' }, '#/compare?a=saved:1'],
    [{ page: 'eval', step: null, query: '' }, '#/eval'],
  ] as const)('formats %o as %s, which parses back', (route, hash) => {
    expect(formatHash(route)).toBe(hash);
    expect(parseHash(hash)).toEqual(route);
  });
});

/** A window whose address bar and history are plain values. */
function fakeWindow(hash: string) {
  const listeners = new Set<() => void>();
  const log: string[] = [];
  const win = {
    location: { hash },
    history: {
      pushState: (_d: unknown, _u: string, url: string) => void (log.push(`push ${url}`), (win.location.hash = url)),
      replaceState: (_d: unknown, _u: string, url: string) =>
        void (log.push(`replace ${url}`), (win.location.hash = url)),
    },
    addEventListener: (_t: 'hashchange', l: () => void) => void listeners.add(l),
    removeEventListener: (_t: 'hashchange', l: () => void) => void listeners.delete(l),
  } satisfies RouterWindow;
  const navigate = (h: string) => {
    win.location.hash = h;
    for (const l of listeners) l();
  };
  return { win, log, navigate, listeners };
}

describe('Router', () => {
  it('starts on the address, follows hash changes, and stops following on cleanup', () => {
    const { win, navigate, listeners } = fakeWindow('#/run?step=3');
    const router = new Router(win);
    expect(router.route).toEqual({ page: 'run', step: 3 });
    const stop = router.start();
    navigate('#/console');
    expect(router.page).toBe('console');
    stop();
    expect(listeners.size).toBe(0);
  });

  it('go pushes a history entry; setStep replaces it, and only on the run page', () => {
    const { win, log } = fakeWindow('');
    const router = new Router(win);
    router.go('run');
    router.setStep(2);
    router.setStep(3);
    router.setStep(3);
    router.setStep(null);
    router.go('console');
    router.setStep(5);
    expect(log).toEqual([
      'push #/run',
      'replace #/run?step=2',
      'replace #/run?step=3',
      'replace #/run',
      'push #/console',
    ]);
    expect(router.route).toEqual({ page: 'console', step: null });
  });

  it('setQuery replaces the query of the compare and eval pages, and of no other', () => {
    const { win, log } = fakeWindow('#/compare?a=saved:1');
    const router = new Router(win);
    router.setQuery('a=saved:1&b=saved:2');
    router.setQuery('a=saved:1&b=saved:2');
    router.go('run');
    router.setQuery('a=saved:3');
    expect(log).toEqual(['replace #/compare?a=saved:1&b=saved:2', 'push #/run']);
  });
});
