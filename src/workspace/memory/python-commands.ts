/**
 * `python3`, `python` and `pytest` inside the offline shell: each hands its arguments to a
 * program engine (on a Node host, this machine's Python over a copy of the files; in the tab,
 * Pyodide in the sandbox frame, py-sandbox.ts), as `node` does (node-commands.ts). `pytest …`
 * runs as `python3 -m pytest …`. A shell made without a Python engine says so and where Python
 * does run.
 */
import { defineCommand, type Command } from 'just-bash';
import { runInEngine, type CommandRun, type JsEngine, type Out } from './node-commands.ts';

/** What `python3` answers in a memory workspace made without a Python engine. */
export const NO_PYTHON_ENGINE =
  'python3 is not available in this workspace: the in-memory workspace here has no Python runtime. ' +
  'Python runs with `slm` on a machine that has python3 (slm call/run/batch on a directory, slm eval, slm replay), inside the OS sandbox.';

/** The commands to register in just-bash for one run; without an engine each says Python is not available. */
export function pythonCommands(engine: JsEngine | undefined, run: CommandRun): Command[] {
  const call = async (args: readonly string[], ctx: Parameters<Parameters<typeof defineCommand>[1]>[1]) => {
    if (!engine) {
      run.note('python3 is not available in this workspace');
      return { stdout: '', stderr: `${NO_PYTHON_ENGINE}\n`, exitCode: 127 } satisfies Out;
    }
    return runInEngine(engine, run, 'python3', args, ctx);
  };
  return [
    defineCommand('python3', (args, ctx) => call(args, ctx)),
    defineCommand('python', (args, ctx) => call(args, ctx)),
    defineCommand('pytest', (args, ctx) => call(['-m', 'pytest', ...args], ctx)),
  ];
}
