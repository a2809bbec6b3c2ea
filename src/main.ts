/** Entry point: start the engine worker, create each page's state once, and mount the app. */
import { mount } from 'svelte';
import './app.css';
import App from './ui/App.svelte';
import { ConsoleState } from './ui/console/console-state.svelte.ts';
import { Router } from './ui/router.svelte.ts';
import { RunState } from './ui/run/run-state.svelte.ts';
import { TimeTravel } from './ui/run/time-travel.svelte.ts';
import { StartState } from './ui/start/start-state.svelte.ts';
import { Theme } from './ui/theme.svelte.ts';
import { createEngineClient } from './worker/client.ts';

const target = document.getElementById('app');
if (!target) throw new Error('index.html has no #app element to mount the playground into');

const client = createEngineClient();
const router = new Router(window);
const storage = (() => {
  try {
    return window.localStorage;
  } catch {
    return null; // storage disabled: the theme choice then lasts for this page only
  }
})();

mount(App, {
  target,
  props: {
    router,
    theme: new Theme({ root: document.documentElement, storage }),
    con: new ConsoleState(client),
    start: new StartState(client),
    run: new RunState(client, { get: () => router.step, set: (step) => router.setStep(step) }),
    travel: new TimeTravel(client),
  },
});
