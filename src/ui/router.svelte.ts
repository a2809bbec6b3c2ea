/**
 * Hash routes: `#/` the start screen, `#/run?step=5` a run with the inspected step,
 * `#/console` the tool console. The URL is the source of truth for the page and the selected
 * step, so a reload (or, later, a shared session) lands on the same view. Stepping through a
 * run replaces the history entry instead of pushing one per key press.
 */

export type Page = 'start' | 'run' | 'console';

/** The part of `window` the router uses (a stand-in in tests). */
export interface RouterWindow {
  readonly location: { readonly hash: string };
  readonly history: { replaceState(data: unknown, unused: string, url: string): void; pushState(data: unknown, unused: string, url: string): void };
  addEventListener(type: 'hashchange', listener: () => void): void;
  removeEventListener(type: 'hashchange', listener: () => void): void;
}

export interface Route {
  readonly page: Page;
  /** The selected step, when the URL names one (a positive integer). */
  readonly step: number | null;
}

const PAGES: Readonly<Record<string, Page>> = { '': 'start', run: 'run', console: 'console' };
const PATHS: Readonly<Record<Page, string>> = { start: '/', run: '/run', console: '/console' };

/** `#/run?step=5` → {page: 'run', step: 5}; anything unknown is the start screen. */
export function parseHash(hash: string): Route {
  const body = hash.replace(/^#/, '');
  const [path = '', query = ''] = body.split('?', 2);
  const page = PAGES[path.replace(/^\/+|\/+$/g, '')] ?? 'start';
  const raw = new URLSearchParams(query).get('step');
  const n = raw !== null && /^\d+$/.test(raw) ? Number(raw) : NaN;
  return { page, step: page === 'run' && Number.isSafeInteger(n) && n >= 1 ? n : null };
}

export function formatHash(route: Route): string {
  const query = route.page === 'run' && route.step !== null ? `?step=${route.step}` : '';
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

  #set(route: Route, how: 'push' | 'replace'): void {
    const url = formatHash(route);
    if (how === 'push') this.win.history.pushState(null, '', url);
    else this.win.history.replaceState(null, '', url);
    // pushState/replaceState fire no hashchange: update the state here.
    this.route = route;
  }
}
