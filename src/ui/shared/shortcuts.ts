/**
 * The keyboard shortcuts, as the list opened with ? shows them. Each row is a shortcut the
 * page really has (the run page's stepping keys are in run/keys.ts, the search, pause and stop
 * keys in RunPage.svelte, Run in App.svelte); e2e/shortcuts.spec.ts presses every one.
 */

export interface Shortcut {
  /** The keys, each as a `<kbd>`; any of them does it. */
  readonly keys: readonly string[];
  readonly what: string;
  /** Where it works. */
  readonly where: 'everywhere' | 'anywhere' | 'run' | 'search' | 'list';
}

export const SHORTCUTS: readonly Shortcut[] = [
  { keys: ['?'], what: 'Show this list of shortcuts', where: 'anywhere' },
  { keys: ['Ctrl+Enter'], what: "Run the start screen's choice (a run in progress is stopped)", where: 'everywhere' },
  { keys: ['p'], what: 'Pause the run, or resume it', where: 'run' },
  { keys: ['x'], what: 'Stop the run', where: 'run' },
  { keys: ['Esc'], what: 'Close this list', where: 'list' },
  { keys: ['←', '↑', 'k'], what: 'The previous step', where: 'run' },
  { keys: ['→', '↓', 'j'], what: 'The next step', where: 'run' },
  { keys: ['Home'], what: 'The first step', where: 'run' },
  { keys: ['End'], what: 'The last step', where: 'run' },
  { keys: ['/'], what: 'Search the steps (text, tool, note kind)', where: 'run' },
  { keys: ['Esc'], what: 'Clear the step search and go back to the steps', where: 'search' },
];

export const WHERE_LABEL: Readonly<Record<Shortcut['where'], string>> = {
  everywhere: 'on every page, in text fields too',
  anywhere: 'anywhere but in a text field',
  run: 'on the run page, outside text fields (in the timeline too)',
  search: 'in the step search',
  list: 'while this list is open',
};
