/**
 * What the in-memory shell can run, for people: made from the shell's own command table
 * (just-bash's registry, and the programs this workspace adds to it, node-commands.ts and
 * python-commands.ts) and the ws_shell policy's rule for each name (command-rules.ts), so it
 * says why `npx some-tool`, `npm install` or a program this shell lacks fails here, and
 * cannot drift from what runs. The verdict on a real command line still depends on its
 * arguments; the list says the rule each name starts from.
 */
import { Bash, getCommandNames, InMemoryFs } from 'just-bash';
import { commandRule, policyCommandNames } from '../../engine/shell/command-rules.ts';
import { nodeCommands, NPM_SCRIPT_COMMANDS, SPEC_RUNNERS, type CommandRun, type JsEngine } from './node-commands.ts';
import { pythonCommands } from './python-commands.ts';

/** Commands that share one sentence. */
export interface ShellCommandRow {
  readonly names: readonly string[];
  readonly text: string;
}

/** One part of the list: a heading, what it means, and its rows. */
export interface ShellCommandGroup {
  readonly title: string;
  readonly text: string;
  readonly rows: readonly ShellCommandRow[];
}

const or = (names: Iterable<string>) => [...names].join(', ');

/** What each program this workspace adds to just-bash does here (in the tab), by name. */
export const ADDED_PROGRAMS: Readonly<Record<string, string>> = {
  node: "runs a file of the workspace in the tab's JavaScript sandbox (a worker with shims for node:test and a few built-in modules), not Node itself; no packages from a registry",
  ...Object.fromEntries(
    [...SPEC_RUNNERS].map((n) => [
      n,
      "runs the workspace's tests with the sandbox's Jest-style runner (Jest's own expect), not the runner itself",
    ]),
  ),
  npm: `runs package.json scripts only: npm ${or(Object.keys(NPM_SCRIPT_COMMANDS))} (the script's one command, if this shell runs it); every other npm command — install, ci, exec … — says it is not available: there is no registry and no node_modules here`,
  npx: `runs only ${or(SPEC_RUNNERS)} (the sandbox's runner); any other package says it is not available: there is no registry to fetch it from`,
  python3:
    'runs CPython in WebAssembly (Pyodide) in the sandbox, the standard library only (unittest included); it is fetched on the first python3, and no packages can be installed (pytest alone is fetched, online, for python3 -m pytest)',
  python: 'the same as python3',
  pytest:
    "runs pytest in Pyodide when the page can fetch its wheels from Pyodide's package index (each checked against Pyodide's lock); offline it says it needs a connection and that python3 -m unittest works offline",
};

/** A CommandRun that runs nothing: enough to read the names of the commands a run registers. */
const NAMES_ONLY: CommandRun = {
  fs: new InMemoryFs(),
  root: '/',
  signal: new AbortController().signal,
  deadline: 0,
  maxOutputBytes: 0,
  note: () => {},
  omitted: () => {},
  interrupted: () => {},
  ranOn: () => {},
};
const NO_ENGINE: JsEngine = { run: () => Promise.reject(new Error('lists names only')) };

const addedPrograms = () => [...nodeCommands(NO_ENGINE, NAMES_ONLY), ...pythonCommands(NO_ENGINE, NAMES_ONLY)];

/** The programs this workspace registers in just-bash for every command (node, npm, python3 …), by name. */
export function addedProgramNames(): string[] {
  return addedPrograms().map((c) => c.name);
}

/**
 * Which of `names` the shell itself knows — a command of its registry, an added program, or
 * one of its builtins (`test`, `cd` …), which no table of the package lists — asked of the
 * shell (`type -t`), set up as a run sets it up.
 */
export async function namesTheShellKnows(names: readonly string[]): Promise<Set<string>> {
  const bash = new Bash({ fs: new InMemoryFs(), customCommands: addedPrograms() });
  const words = names.filter((n) => /^[\w.[-]+$/.test(n)).map((n) => `'${n}'`);
  const r = await bash.exec(`for n in ${words.join(' ')}; do printf '%s %s\\n' "$n" "$(type -t "$n")"; done`);
  return new Set(
    r.stdout
      .split('\n')
      .map((line) => line.split(' '))
      .filter(([, kind]) => kind)
      .map(([name]) => name!),
  );
}

/** Rows of `names`, one per sentence, in the order the sentences first come. */
function rowsBy(names: readonly string[], text: (name: string) => string): ShellCommandRow[] {
  const rows = new Map<string, string[]>();
  for (const name of [...names].sort()) {
    const t = text(name);
    rows.set(t, [...(rows.get(t) ?? []), name]);
  }
  return [...rows].map(([t, ns]) => ({ names: ns, text: t }));
}

/**
 * The in-memory shell's commands — its registry, the programs added to it, and the builtins the
 * policy has a rule for — grouped by what happens when ws_shell is asked to run one.
 */
export async function shellCommandList(): Promise<ShellCommandGroup[]> {
  const added = addedProgramNames();
  const known = await namesTheShellKnows(policyCommandNames());
  const shell = [...new Set([...getCommandNames(), ...added, ...known])];
  const builtIn = shell.filter((n) => !added.includes(n));
  const rule = (n: string) => commandRule(n);
  const runs = builtIn.filter((n) => !['gated', 'never', 'unknown'].includes(rule(n).kind));
  const gated = builtIn.filter((n) => rule(n).kind === 'gated');
  const refused = builtIn.filter((n) => ['never', 'unknown'].includes(rule(n).kind));
  const missing = policyCommandNames().filter((n) => !shell.includes(n) && rule(n).kind !== 'never');
  return [
    {
      title: 'Programs added to this shell',
      text: 'just-bash has no node, npm or python; these stand in for them, with these limits.',
      rows: rowsBy(added, (n) => ADDED_PROGRAMS[n] ?? ''),
    },
    {
      title: 'Runs',
      text: 'Commands the shell has and ws_shell runs when their arguments pass its checks.',
      rows: rowsBy(runs, (n) => rule(n).text),
    },
    {
      title: 'Waits for a person',
      text: 'Commands the shell has that run only after a person approves the call.',
      rows: rowsBy(gated, (n) => rule(n).text),
    },
    {
      title: 'Refused',
      text: 'Commands the shell has that ws_shell never runs; the refusal names the tool to use instead.',
      rows: rowsBy(refused, (n) => rule(n).text),
    },
    {
      title: 'Not in this shell',
      text: 'The policy would let ws_shell run these (some after a person approves), but the in-memory shell has no such program, so the command fails with exit code 127 (command not found). They run with slm on a machine that has them; for the repository, use the git_status and git_diff tools.',
      rows: [{ names: [...missing].sort(), text: 'no such program in the in-memory shell' }],
    },
  ];
}
