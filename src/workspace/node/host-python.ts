/**
 * The host's Python, found once per process: the first `python3` (else `python`) on this
 * process's PATH is asked, in isolated mode (`-I`: no environment variables, no user site, no
 * current directory on sys.path) and from an empty directory, where its interpreter and its
 * installation really are. Version managers' shims (pyenv) resolve here, so the sandbox can
 * bind the real installation read-only and run its interpreter directly.
 */
import { execFileSync } from 'node:child_process';
import { accessSync, constants, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A Python installation on this machine. */
export interface HostPython {
  /** The interpreter, absolute (`sys.executable`). */
  readonly executable: string;
  /** The directory it is in; the sandbox's PATH has it after Node's. */
  readonly bin: string;
  /** `3.11.7` */
  readonly version: string;
  /** Where its standard library and packages live (prefix, base prefix, exec prefixes), physical, without repeats. */
  readonly prefixes: readonly string[];
  /** Whether `import pytest` works with it. */
  readonly pytest: boolean;
}

/** The names a person types for Python; `pytest` runs as `python3 -m pytest`. */
export const PYTHON_NAMES: ReadonlySet<string> = new Set(['python3', 'python', 'pytest']);

/** What `python3` answers with when this machine has none. */
export const NO_HOST_PYTHON =
  'python3 is not installed on this machine (no python3 or python on the PATH slm started with), so Python code cannot run here. ' +
  'Install Python 3 (Debian/Ubuntu: apt install python3) and start slm again.';

/** The question asked of the interpreter: one JSON line. */
const ASK = [
  'import json, sys, importlib.util',
  'print(json.dumps([sys.executable, sys.version.split()[0], sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix, importlib.util.find_spec("pytest") is not None]))',
].join('\n');

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    if (!dir) continue;
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {
      // not here; the next directory
    }
  }
  return undefined;
}

function ask(program: string): HostPython | null {
  const empty = mkdtempSync(join(tmpdir(), 'slm-python-probe-'));
  try {
    const out = execFileSync(program, ['-I', '-c', ASK], {
      cwd: empty,
      encoding: 'utf8',
      timeout: 10_000,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const [exe, version, ...rest] = JSON.parse(out.trim().split('\n').pop() ?? '') as [string, string, ...unknown[]];
    const pytest = rest.pop() === true;
    if (typeof exe !== 'string' || !exe.startsWith('/')) return null;
    const executable = realpathSync(exe);
    const prefixes = [
      ...new Set(
        (rest as string[]).filter((p) => typeof p === 'string' && p.startsWith('/')).map((p) => realpathSync(p)),
      ),
    ];
    return { executable: exe, bin: dirname(exe), version, prefixes: [...prefixes, dirname(executable)], pytest };
  } catch {
    return null;
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
}

let found: HostPython | null | undefined;

/** This machine's Python, or null when there is none (asked once per process). */
export function hostPython(): HostPython | null {
  if (found !== undefined) return found;
  const program = onPath('python3') ?? onPath('python');
  found = program ? ask(program) : null;
  return found;
}
