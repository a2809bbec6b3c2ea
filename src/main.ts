/** Entry point: start the engine worker and mount the tool console. */
import { mount } from 'svelte';
import './app.css';
import App from './ui/App.svelte';
import { ConsoleState } from './ui/console/console-state.svelte.ts';
import { createEngineClient } from './worker/client.ts';

const target = document.getElementById('app');
if (!target) throw new Error('index.html has no #app element to mount the console into');

mount(App, { target, props: { con: new ConsoleState(createEngineClient()) } });
