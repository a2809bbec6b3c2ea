/** Entry point: start the engine worker, create each page's state once, and mount the app. */
import { mount } from 'svelte';
import './app.css';
import App from './ui/App.svelte';
import { ConsoleState } from './ui/console/console-state.svelte.ts';
import { Router } from './ui/router.svelte.ts';
import { RunLab } from './ui/run/run-lab.svelte.ts';
import { RunState } from './ui/run/run-state.svelte.ts';
import { TimeTravel } from './ui/run/time-travel.svelte.ts';
import { StartState } from './ui/start/start-state.svelte.ts';
import { WorkspaceChoice } from './ui/start/workspace-choice.svelte.ts';
import { Theme } from './ui/theme.svelte.ts';
import { createEngineClient, type ShellCommandGroup } from './worker/client.ts';
import { openSessionStore } from './session/idb-store.ts';
import { Sessions } from './ui/sessions/sessions.svelte.ts';
import { WebContainerLink } from './worker/webcontainer-link.ts';
import { connectSandboxFrame } from './worker/sandbox-frame.ts';
import { CompareState } from './ui/compare/compare-state.svelte.ts';
import { EvalState } from './ui/eval/eval-state.svelte.ts';
import { runOptions } from './worker/run-options.ts';

const target = document.getElementById('app');
if (!target) throw new Error('index.html has no #app element to mount the playground into');

const client = createEngineClient();
// `window.slmcodePackageIndex` (set before the page loads, as the e2e specs do) names the index pytest's wheels come from.
connectSandboxFrame(client, document, (window as { slmcodePackageIndex?: unknown }).slmcodePackageIndex);
const router = new Router(window);
// `?wcTimeout=MS` shortens WebContainer's boot timeout (the e2e specs use it).
const wcTimeout = Number(new URLSearchParams(location.search).get('wcTimeout'));
const webcontainer = new WebContainerLink(
  client,
  Number.isInteger(wcTimeout) && wcTimeout > 0 ? { timeoutMs: wcTimeout } : {},
);
const storage = (() => {
  try {
    return window.localStorage;
  } catch {
    return null; // storage disabled: the theme choice then lasts for this page only
  }
})();

// The start screen's choices come with the page, so its first paint lists them; the engine worker loads meanwhile.
const start = new StartState(client, new WorkspaceChoice(webcontainer), {
  modelSpec: new URLSearchParams(location.search).get('model'),
  storage,
  choices: runOptions(),
});
const run = new RunState(client, { get: () => router.step, set: (step) => router.setStep(step) });
const tab = (() => {
  try {
    return window.sessionStorage;
  } catch {
    return null; // storage disabled: a reload then cannot find the run it cut short
  }
})();
const store = openSessionStore(window.indexedDB);
const sessions = new Sessions({
  client,
  store,
  run,
  start,
  router,
  win: window,
  tab,
  clipboard: () => navigator.clipboard,
});
// The split view reads and writes its own query of the address (`#/compare?a=…&b=…&row=…`).
const compareRoute = {
  get query(): string {
    return router.route.query ?? '';
  },
  setQuery: (query: string) => router.setQuery(query),
};

// What the in-memory shell runs: made once by the worker, on the first ask (made again after a failure).
let shellList: Promise<readonly ShellCommandGroup[]> | null = null;
const shellCommands = () =>
  (shellList ??= client.shellCommands().catch((e: unknown) => {
    shellList = null;
    throw e;
  }));

mount(App, {
  target,
  props: {
    router,
    theme: new Theme({ root: document.documentElement, storage }),
    con: new ConsoleState(client),
    start,
    run,
    travel: new TimeTravel(client),
    lab: new RunLab(client, run),
    sessions,
    compare: new CompareState({ client, lists: sessions, store: store.then((s) => s.store), route: compareRoute }),
    ev: new EvalState(client, start),
    shellCommands,
  },
});
