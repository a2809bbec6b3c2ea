/**
 * Hash routes: `#/` the start screen, `#/run?step=5` a run with the inspected step,
 * `#/console` the tool console, `#/compare?a=…&b=…` two sessions side by side and `#/eval` the
 * task suite (these two keep their own query, which their pages read). The URL is the source
 * of truth for the page and the selected step, so a reload (or, later, a shared session) lands
 * on the same view. Stepping through a run replaces the history entry instead of pushing one
 * per key press.
 */

export type Page = 'start' | 'run' | 'console' | 'compare' | 'eval';

/** The part of `window` the router uses (a stand-in in tests). */
export interface RouterWindow {
  readonly location: { readonly hash: string };
  readonly history: {
    replaceState(data: unknown, unused: string, url: string): void;
    pushState(data: unknown, unused: string, url: string): void;
  };
  addEventListener(type: 'hashchange', listener: () => void): void;
  removeEventListener(type: 'hashchange', listener: () => void): void;
}

export interface Route {
  readonly page: Page;
  /** The selected step, when the URL names one (a positive integer). */
  readonly step: number | null;
  /** The query of a page that keeps its own (compare, eval), as written after `?`. */
  readonly query?: string;
}

/** The pages whose query is theirs to read (the router keeps it as written). */
const OWN_QUERY: ReadonlySet<Page> = new Set(['compare', 'eval']);

const PAGES: Readonly<Record<string, Page>> = {
  '': 'start',
  run: 'run',
  console: 'console',
  compare: 'compare',
  eval: 'eval',
};
const PATHS: Readonly<Record<Page, string>> = {
  start: '/',
  run: '/run',
  console: '/console',
  compare: '/compare',
  eval: '/eval',
};

/** `#/run?step=5` → {page: 'run', step: 5}; anything unknown is the start screen. */
export function parseHash(hash: string): Route {
  const body = hash.replace(/^#/, '');
  const at = body.indexOf('?');
  const path = at < 0 ? body : body.slice(0, at);
  const query = at < 0 ? '' : body.slice(at + 1);
  const page = PAGES[path.replace(/^\/+|\/+$/g, '')] ?? 'start';
  if (OWN_QUERY.has(page)) return { page, step: null, query };
  const raw = new URLSearchParams(query).get('step');
  const n = raw !== null && /^\d+$/.test(raw) ? Number(raw) : NaN;
  return { page, step: page === 'run' && Number.isSafeInteger(n) && n >= 1 ? n : null };
}

export function formatHash(route: Route): string {
  const query =
    route.page === 'run' && route.step !== null
      ? `?step=${route.step}`
      : OWN_QUERY.has(route.page) && route.query
        ? `?${route.query}`
        : '';
  return `#${PATHS[route.page]}${query}`;
}

export class Router {
  route = $state<Route>({ page: 'start', step: null });

  constructor(private readonly win: RouterWindow) {
    this.route = parseHash(win.location.hash);
  }

  get page(): Page {
    return this.route.page;
  }

  get step(): number | null {
    return this.route.step;
  }

  /** Follows the address bar; returns the cleanup for the component's $effect. */
  start(): () => void {
    const onHash = () => (this.route = parseHash(this.win.location.hash));
    this.win.addEventListener('hashchange', onHash);
    return () => this.win.removeEventListener('hashchange', onHash);
  }

  /** Goes to a page (a new history entry); the step is kept only for the run page. */
  go(page: Page, step: number | null = null): void {
    this.#set({ page, step: page === 'run' ? step : null }, 'push');
  }

  /** Selects a step on the run page without adding a history entry (null: follow the latest). */
  setStep(step: number | null): void {
    if (this.route.page !== 'run' || this.route.step === step) return;
    this.#set({ page: 'run', step }, 'replace');
  }

  /** The query of the compare or eval page on screen, without adding a history entry. */
  setQuery(query: string): void {
    const { page } = this.route;
    if (!OWN_QUERY.has(page) || this.route.query === query) return;
    this.#set({ page, step: null, query }, 'replace');
  }

  #set(route: Route, how: 'push' | 'replace'): void {
    const url = formatHash(route);
    if (how === 'push') this.win.history.pushState(null, '', url);
    else this.win.history.replaceState(null, '', url);
    // pushState/replaceState fire no hashchange: update the state here.
    this.route = route;
  }
}
