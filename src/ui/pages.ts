/**
 * The pages other than the start screen, each its own chunk: the start screen's first paint
 * parses none of their code. `preloadPages` fetches them all once the page is idle, so the
 * first visit to one rarely waits for the network.
 */
export const PAGE_LOADERS = {
  run: () => import('./run/RunPage.svelte'),
  compare: () => import('./compare/ComparePage.svelte'),
  eval: () => import('./eval/EvalPage.svelte'),
  console: () => import('./console/ConsolePage.svelte'),
} as const;

/** Loads every page's chunk when the browser is idle (or after a second where it has no idle callback). */
export function preloadPages(win: Pick<Window, 'setTimeout'> & Partial<Pick<Window, 'requestIdleCallback'>>): void {
  const load = () => {
    for (const loader of Object.values(PAGE_LOADERS)) void loader().catch(() => {}); // a failed load is retried, and said, on the visit
  };
  if (win.requestIdleCallback) win.requestIdleCallback(load, { timeout: 2000 });
  else win.setTimeout(load, 1000);
}
