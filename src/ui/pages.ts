/**
 * The pages other than the start screen, each its own chunk: the start screen's first paint
 * parses none of their code, and a page's code is fetched on its first visit. Nothing is
 * fetched ahead: a browser keeps a module that failed to load as failed, so a prefetch cut off
 * by a dropped connection would break that page for the rest of the tab's life.
 */
export const PAGE_LOADERS = {
  run: () => import('./run/RunPage.svelte'),
  compare: () => import('./compare/ComparePage.svelte'),
  eval: () => import('./eval/EvalPage.svelte'),
  console: () => import('./console/ConsolePage.svelte'),
} as const;
