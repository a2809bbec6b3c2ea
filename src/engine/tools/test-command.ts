/**
 * Which command runs a workspace's tests: the package.json `test` script (as `npm test`), else
 * for a Python project unittest's discovery when every test file imports unittest and pytest
 * otherwise, else `go test` for a Go module. A name
 * filter is passed in the runner's own option, when the runner is known.
 */
import type { Workspace } from '../workspace.ts';
import { decodeText } from '../text.ts';

export interface TestCommand {
  /** The command line, as ws_shell would take it. */
  readonly line: string;
  /** The package.json script `npm test` runs, checked with the policy too. */
  readonly script?: string;
  /** Set when a filter was given but the runner's filter option is unknown, so it was not applied. */
  readonly filterIgnored?: string;
}

/** npm's placeholder script from `npm init`: it only fails. */
const NPM_PLACEHOLDER = /no test specified/;

/** The filter option of the runner a package.json script calls. */
const SCRIPT_FILTERS: readonly (readonly [RegExp, string])[] = [
  [/\bnode\b[^|;&]*\s--test\b/, '--test-name-pattern'],
  [/\b(?:vitest|jest)\b/, '-t'],
  [/\bmocha\b/, '--grep'],
  [/\b(?:pytest|python3? -m (?:pytest|unittest))\b/, '-k'],
];

/** Quotes one argument for a POSIX shell line. */
export function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

async function readText(ws: Workspace, path: string): Promise<string | null> {
  try {
    return decodeText(await ws.readFile(path));
  } catch {
    return null;
  }
}

async function exists(ws: Workspace, path: string): Promise<boolean> {
  return (await ws.lstat(path)) !== null;
}

/** The `test` script of package.json, or null when there is none (or only npm's placeholder). */
async function npmTestScript(ws: Workspace): Promise<string | null> {
  const text = await readText(ws, 'package.json');
  if (text === null) return null;
  let pkg: unknown;
  try {
    pkg = JSON.parse(text);
  } catch {
    return null;
  }
  const scripts = (pkg as { scripts?: unknown }).scripts;
  const test = scripts && typeof scripts === 'object' ? (scripts as Record<string, unknown>).test : undefined;
  return typeof test === 'string' && test.trim() !== '' && !NPM_PLACEHOLDER.test(test) ? test : null;
}

/** Where a Python project keeps its tests, and whether they are written for unittest alone; null when it has none. */
async function pythonTests(
  ws: Workspace,
): Promise<{ readonly dir: string; readonly unittest: boolean; readonly suffixed?: boolean } | null> {
  let pytest = false;
  for (const marker of ['pytest.ini', 'conftest.py', 'tox.ini']) if (await exists(ws, marker)) pytest = true;
  const pyproject = await readText(ws, 'pyproject.toml');
  if (pyproject?.includes('pytest')) pytest = true;
  for (const dir of ['', 'tests', 'test']) {
    let names: string[];
    try {
      names = (await ws.readdir(dir)).map((e) => e.name);
    } catch {
      continue;
    }
    const tests = names.filter((n) => /^test_.*\.py$|_test\.py$/.test(n));
    if (tests.length === 0) continue;
    if (pytest) return { dir, unittest: false };
    // Files that all import unittest are its tests; plain `def test_…` functions need pytest.
    for (const name of tests) {
      const text = await readText(ws, dir ? `${dir}/${name}` : name);
      if (!text || !/^\s*(?:import unittest|from unittest\b)/m.test(text)) return { dir, unittest: false };
    }
    return { dir, unittest: true, suffixed: !tests.some((n) => n.startsWith('test')) };
  }
  return pytest ? { dir: '', unittest: false } : null;
}

/**
 * unittest's own runner for a project whose tests are all unittest ones: discovery from the
 * tests' directory (`-s`, so `tests/` needs no `__init__.py`; `python3 -m` puts the project root
 * on sys.path, so the code under test imports), names filtered with `-k`. Files named
 * `*_test.py` are found with the matching `-p` pattern.
 */
function unittestLine(dir: string, suffixed: boolean, filter: string | undefined): string {
  const parts = ['python3 -m unittest discover'];
  if (dir) parts.push(`-s ${dir}`);
  if (suffixed) parts.push(`-p '*_test.py'`);
  if (filter !== undefined) parts.push(`-k ${shellQuote(filter)}`);
  return parts.join(' ');
}

/** The test command for `ws`, or null when none can be found. */
export async function findTestCommand(ws: Workspace, filter: string | undefined): Promise<TestCommand | null> {
  const script = await npmTestScript(ws);
  if (script !== null) {
    if (filter === undefined) return { line: 'npm test', script };
    const option = SCRIPT_FILTERS.find(([re]) => re.test(script))?.[1];
    return option
      ? { line: `npm test -- ${option} ${shellQuote(filter)}`, script }
      : { line: 'npm test', script, filterIgnored: filter };
  }
  const python = await pythonTests(ws);
  if (python?.unittest) return { line: unittestLine(python.dir, python.suffixed === true, filter) };
  if (python) return { line: filter === undefined ? 'pytest' : `pytest -k ${shellQuote(filter)}` };
  if (await exists(ws, 'go.mod'))
    return { line: filter === undefined ? 'go test -v ./...' : `go test -v -run ${shellQuote(filter)} ./...` };
  return null;
}
