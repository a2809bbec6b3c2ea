/**
 * ws_test: the starter template's `npm test` read as `8 passed, 1 failed` with the failing
 * test named, on both backends; the tally recorded as a note; filters passed in the runner's
 * own option; a test script the policy refuses is not run; how the test command is found.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { findTestCommand } from '../../src/engine/tools/test-command.ts';
import { MemoryWorkspace } from '../../src/workspace/memory/memory-workspace.ts';
import { STARTER_TEMPLATE } from '../../src/workspace/templates/index.ts';
import { BACKENDS, cleanupBackends, shellEngine, shellWorkspace } from '../support/shell-backends.ts';

afterAll(cleanupBackends);

describe.each(BACKENDS)('ws_test on the %s backend', (backend) => {
  it('reads the starter template as 8 passed, 1 failed, names the failure and records the tally', async () => {
    const engine = shellEngine(await shellWorkspace(backend, STARTER_TEMPLATE.files));
    const r = await engine.call('ws_test', {});
    expect(r.ok).toBe(false);
    const [first, ...rest] = r.text.split('\n');
    expect(first).toBe('npm test: 8 passed, 1 failed (exit code 1)');
    expect(rest.slice(0, 3)).toEqual([
      'First failures:',
      '  1. truncate never returns more than max characters',
      '     Expected values to be strictly equal:',
    ]);
    expect(r.text).toContain("     + 'hello wo…'\n     - 'hello w…'");
    expect(r.text).toMatch(/\nOutput \(last 25 of \d+ lines; ws_shell "npm test" shows more\):\n/);
    expect(r.text).toMatch(/# pass 8\n# fail 1\n[\s\S]*\[exit code 1\]$/);
    expect(r.notes).toContainEqual({ kind: 'hint', text: 'test tally: 8 passed, 1 failed', detail: 'tally:8/1' });
  });

  it("passes a filter as the runner's name option", async () => {
    const engine = shellEngine(await shellWorkspace(backend, STARTER_TEMPLATE.files));
    const r = await engine.call('ws_test', { filter: 'truncate' });
    // The two truncate tests run, one of them the failing one; the other seven are skipped.
    expect(r.text.split('\n')[0]).toBe('npm test -- --test-name-pattern truncate: 1 passed, 1 failed (exit code 1)');
    expect(r.notes).toContainEqual({ kind: 'hint', text: 'test tally: 1 passed, 1 failed', detail: 'tally:1/1' });
  });

  it('a passing suite is an ok result', async () => {
    const files = {
      'package.json': '{"type":"module","scripts":{"test":"node --test"}}',
      'test/a.test.js': "import { test } from 'node:test';\ntest('a', () => {});\n",
    };
    const r = await shellEngine(await shellWorkspace(backend, files)).call('ws_test', {});
    expect(r.ok).toBe(true);
    expect(r.text.split('\n')[0]).toBe('npm test: 1 passed, 0 failed (exit code 0)');
  });

  it('a printed passing summary with a failing exit code is not counted as a pass', async () => {
    const files = {
      'package.json': '{"type":"module","scripts":{"test":"node spoof.js"}}',
      'spoof.js': "console.log(' Tests  99 passed (99)');\nprocess.exit(1);\n",
    };
    const r = await shellEngine(await shellWorkspace(backend, files)).call('ws_test', {});
    expect(r.ok).toBe(false);
    expect(r.text.split('\n')[0]).toBe(
      'npm test: the output reports 99 passed and none failed, but the command exited with code 1, so this is not counted as a passing run (exit code 1). Find what failed in the output below.',
    );
    expect(r.notes.some((n) => n.detail?.startsWith('tally:'))).toBe(false);
    expect(r.notes).toContainEqual(expect.objectContaining({ detail: 'tally-distrusted' }));
  });
});

describe('ws_test refusals', () => {
  it.each<{ what: string; files: Record<string, string>; text: RegExp }>([
    {
      what: 'a test script the policy refuses is not run',
      files: { 'package.json': JSON.stringify({ scripts: { test: 'node --test && rm -rf src' } }) },
      text: /^ws_test did not run npm test: its package\.json "test" script "node --test && rm -rf src" is refused by the shell policy — refused \(tier never\): "&&" chains a second command .* Make the script one test-runner command \(e\.g\. "node --test"\) with ws_edit, or run a test file directly with ws_shell\.$/,
    },
    {
      what: 'without a test command it says how to add one',
      files: { 'README.md': '# nothing to test\n' },
      text: /^ws_test found no test command: there is no "test" script in package\.json .* Add a "test" script to package\.json \(e\.g\. "node --test"\) with ws_edit, or run a test file directly with ws_shell \(node --test test\/x\.test\.js\)\.$/,
    },
  ])('$what', async ({ files, text }) => {
    const ws = await shellWorkspace('memory', files);
    const r = await shellEngine(ws).call('ws_test', {});
    expect(r.ok).toBe(false);
    expect(r.text).toMatch(text);
    if ('src' in files) expect(await ws.lstat('src')).not.toBeNull();
  });
});

describe('findTestCommand', () => {
  it.each([
    {
      what: 'npm test for a package.json test script',
      files: { 'package.json': '{"scripts":{"test":"node --test"}}' },
      filter: undefined,
      line: 'npm test',
    },
    {
      what: 'node --test takes --test-name-pattern',
      files: { 'package.json': '{"scripts":{"test":"node --test test/"}}' },
      filter: "it's",
      line: "npm test -- --test-name-pattern 'it'\\''s'",
    },
    {
      what: 'vitest takes -t',
      files: { 'package.json': '{"scripts":{"test":"vitest run"}}' },
      filter: 'adds',
      line: 'npm test -- -t adds',
    },
    {
      what: 'jest takes -t',
      files: { 'package.json': '{"scripts":{"test":"jest --ci"}}' },
      filter: 'a b',
      line: "npm test -- -t 'a b'",
    },
    {
      what: 'mocha takes --grep',
      files: { 'package.json': '{"scripts":{"test":"mocha"}}' },
      filter: 'x',
      line: 'npm test -- --grep x',
    },
    {
      what: 'an unknown runner runs unfiltered, and says so',
      files: { 'package.json': '{"scripts":{"test":"node test/run.js"}}' },
      filter: 'x',
      line: 'npm test',
      ignored: 'x',
    },
    {
      what: "npm init's placeholder is no test script",
      files: {
        'package.json': '{"scripts":{"test":"echo \\"Error: no test specified\\" && exit 1"}}',
        'go.mod': 'module x\n',
      },
      filter: undefined,
      line: 'go test -v ./...',
    },
    {
      what: 'a package.json test script running pytest takes -k',
      files: { 'package.json': '{"scripts":{"test":"pytest tests"}}' },
      filter: 'adds',
      line: 'npm test -- -k adds',
    },
    {
      what: 'a package.json test script running python -m unittest takes -k',
      files: { 'package.json': '{"scripts":{"test":"python -m unittest discover"}}' },
      filter: 'adds',
      line: 'npm test -- -k adds',
    },
    { what: 'pytest from pytest.ini', files: { 'pytest.ini': '[pytest]\n' }, filter: 'adds', line: 'pytest -k adds' },
    {
      what: 'pytest from a pyproject.toml that names it',
      files: { 'pyproject.toml': '[tool.pytest.ini_options]\n' },
      filter: undefined,
      line: 'pytest',
    },
    {
      what: 'pytest from test_*.py under tests/',
      files: { 'tests/test_x.py': 'def test_x(): pass\n' },
      filter: undefined,
      line: 'pytest',
    },
    {
      what: 'unittest discovery when every test file under tests/ imports unittest, with -k',
      files: { 'tests/test_x.py': 'import unittest\nclass T(unittest.TestCase): pass\n', 'x.py': '' },
      filter: 'adds',
      line: 'python3 -m unittest discover -s tests -k adds',
    },
    {
      what: 'unittest discovery at the root, *_test.py files found by their pattern',
      files: { 'calc_test.py': 'from unittest import TestCase\n' },
      filter: undefined,
      line: "python3 -m unittest discover -p '*_test.py'",
    },
    {
      what: 'pytest when one test file does not import unittest',
      files: { 'tests/test_a.py': 'import unittest\n', 'tests/test_b.py': 'def test_b(): pass\n' },
      filter: undefined,
      line: 'pytest',
    },
    {
      what: 'pytest when a pytest configuration is there, even for unittest files',
      files: { 'conftest.py': '', 'tests/test_a.py': 'import unittest\n' },
      filter: undefined,
      line: 'pytest',
    },
    {
      what: 'go test for a Go module, with -run',
      files: { 'go.mod': 'module x\n' },
      filter: 'TestAdd',
      line: 'go test -v -run TestAdd ./...',
    },
    {
      what: 'nothing to run',
      files: { 'main.py': 'print(1)\n', 'package.json': '{"name":"x"}' },
      filter: undefined,
      line: null,
    },
  ])('$what', async ({ files, filter, line, ...rest }) => {
    const ws = new MemoryWorkspace();
    for (const [p, t] of Object.entries(files)) await ws.writeFile(p, new TextEncoder().encode(t));
    const found = await findTestCommand(ws, filter);
    expect(found?.line ?? null).toBe(line);
    expect(found?.filterIgnored).toBe('ignored' in rest ? rest.ignored : undefined);
  });
});
