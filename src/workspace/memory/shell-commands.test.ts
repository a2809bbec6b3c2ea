/**
 * The list of what the in-memory shell runs matches its tables: every command of just-bash's
 * registry and every program this workspace adds is listed once, in the group its policy rule
 * puts it in; every added program says what it does here; and, checked against the real parts,
 * what the list calls refused is refused by the policy, and what it calls not in this shell
 * fails with exit code 127 in a real memory workspace.
 */
import type { Parser } from 'web-tree-sitter';
import { getCommandNames } from 'just-bash';
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeWasm } from '../../../tests/support/node-wasm.ts';
import { commandRule, policyCommandNames } from '../../engine/shell/command-rules.ts';
import { decideShell } from '../../engine/shell/policy.ts';
import { parserFor } from '../../engine/treesitter/loader.ts';
import { singleCommand } from '../../engine/workspace.ts';
import { MemoryWorkspace } from './memory-workspace.ts';
import { NodeJsEngine } from './node-runner.ts';
import { ShellRunner } from './shell-runner.ts';
import {
  addedProgramNames,
  ADDED_PROGRAMS,
  namesTheShellKnows,
  shellCommandList,
  type ShellCommandGroup,
} from './shell-commands.ts';

useNodeWasm();
let parser: Parser;
let list: ShellCommandGroup[];
beforeAll(async () => {
  parser = await parserFor('bash');
  list = await shellCommandList();
});

const group = (title: string): ShellCommandGroup => {
  const g = list.find((x) => x.title === title);
  if (!g) throw new Error(`no group ${JSON.stringify(title)} in ${list.map((x) => x.title).join(', ')}`);
  return g;
};
const namesIn = (title: string) => group(title).rows.flatMap((r) => r.names);
const SHELL_GROUPS = ['Programs added to this shell', 'Runs', 'Waits for a person', 'Refused'];

describe('the in-memory shell command list', () => {
  it("lists each command of the shell's table exactly once, and the builtins the policy has a rule for", async () => {
    const listed = SHELL_GROUPS.flatMap(namesIn);
    const builtins = await namesTheShellKnows(policyCommandNames());
    expect([...builtins]).toEqual(expect.arrayContaining(['test', 'cd', 'printf']));
    const table = [...new Set([...getCommandNames(), ...addedProgramNames(), ...builtins])];
    expect([...listed].sort()).toEqual([...table].sort());
    expect(new Set(listed).size).toBe(listed.length);
  });

  it('lists the programs the shell registers for a command (node, npm, npx, python3 …), each with what it does here', () => {
    const added = addedProgramNames();
    expect(added).toEqual(expect.arrayContaining(['node', 'npm', 'npx', 'python3', 'pytest']));
    expect([...namesIn('Programs added to this shell')].sort()).toEqual([...added].sort());
    for (const name of added) expect(ADDED_PROGRAMS[name], name).toMatch(/\w{3}/);
    // No text for a program the shell does not add.
    expect(Object.keys(ADDED_PROGRAMS).sort()).toEqual([...added].sort());
  });

  it.each([
    ['npm', /install, ci, exec … — says it is not available: there is no registry/],
    ['npm', /npm test, t, tst, start, stop, restart, run, run-script/],
    ['npx', /runs only jest, vitest, mocha/],
    ['pytest', /python3 -m unittest/],
  ])('says why %s fails here: %s', (name, text) => {
    const row = group('Programs added to this shell').rows.find((r) => r.names.includes(name));
    expect(row?.text).toMatch(text);
  });

  it.each([
    ['Runs', ['read-only', 'checked', 'test-runner', 'interpreter', 'package-manager']],
    ['Waits for a person', ['gated']],
    ['Refused', ['never', 'unknown']],
  ])("puts each command in %s by the policy's rule for its name", (title, kinds) => {
    for (const row of group(title).rows) {
      for (const name of row.names) {
        expect(kinds, name).toContain(commandRule(name).kind);
        expect(row.text, name).toBe(commandRule(name).text);
      }
    }
  });

  it('what it calls refused, the policy refuses (the command alone, and with a file operand)', () => {
    for (const name of namesIn('Refused')) {
      expect(decideShell(parser, name).decision, name).toBe('refuse');
      expect(decideShell(parser, `${name} README.md`).decision, `${name} README.md`).toBe('refuse');
    }
  });

  it('lists as not in this shell every name the policy does not refuse outright and the shell lacks', async () => {
    const missing = namesIn('Not in this shell');
    const shell = new Set([
      ...getCommandNames(),
      ...addedProgramNames(),
      ...(await namesTheShellKnows(policyCommandNames())),
    ]);
    expect(missing).toEqual(
      policyCommandNames()
        .filter((n) => !shell.has(n) && commandRule(n).kind !== 'never')
        .sort(),
    );
    expect(missing).toEqual(expect.arrayContaining(['tsc', 'go', 'cargo', 'yarn']));
  });

  it('what it calls not in this shell really fails with 127 in a memory workspace', async () => {
    const ws = new MemoryWorkspace(undefined, undefined, new ShellRunner(new NodeJsEngine()));
    for (const name of namesIn('Not in this shell')) {
      const r = await ws.exec(singleCommand([name, '--version']), { timeoutMs: 10_000, maxOutputBytes: 4096 });
      expect(r.exitCode, `${name}: ${r.output}`).toBe(127);
    }
  });
});
