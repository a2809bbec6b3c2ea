/**
 * ls operands reach just-bash as the literals they are: escaped for its minimatch, shown back as
 * given. A word that makes minimatch backtrack for minutes beside a long name answers like any
 * other (the test's own limit is the guard), and names holding *, ? or [ are listed as themselves.
 */
import { describe, expect, it } from 'vitest';
import { singleCommand } from '../../engine/workspace.ts';
import { literalOperands } from './literal-operands.ts';
import { MemoryWorkspace } from './memory-workspace.ts';
import { NodeJsEngine } from './node-runner.ts';
import { ShellRunner } from './shell-runner.ts';

describe('literalOperands', () => {
  it.each([
    ['ls', ['rt/*a*b'], ['rt/\\*a\\*b']],
    ['ls', ['-la', 'src/[x].ts', 'q?'], ['-la', 'src/\\[x\\].ts', 'q\\?']],
    ['ls', ['-I', '*.js', 'src'], ['-I', '*.js', 'src']],
    ['ls', ['--', '-*'], ['--', '-\\*']],
    ['ls', ['plain', 'a\\b'], ['plain', 'a\\\\b']],
    ['cat', ['a*b'], ['a*b']],
  ] as const)('%s %j → %j', (cmd, args, expected) => {
    expect(literalOperands(cmd, args).args).toEqual(expected);
  });

  it('puts the operands back as given in what ls printed', () => {
    const l = literalOperands('ls', ['rt/*a']);
    expect(l.shown('ls: rt/\\*a: No such file or directory\n')).toBe('ls: rt/*a: No such file or directory\n');
  });
});

describe('ls in the memory workspace', () => {
  const ws = async (): Promise<MemoryWorkspace> => {
    const w = new MemoryWorkspace(undefined, undefined, new ShellRunner(new NodeJsEngine()));
    for (const name of ['a'.repeat(40), 'a*b', '[x].txt'])
      await w.writeFile(`rt/${name}`, new TextEncoder().encode('x\n'));
    return w;
  };
  const OPTS = { timeoutMs: 5_000, maxOutputBytes: 10_000 };

  it('a word that backtracks for minutes in minimatch (12 stars, a 40-letter name) is answered at once, named as given', async () => {
    const r = await (await ws()).exec(singleCommand(['ls', 'rt/*a*a*a*a*a*a*a*a*a*a*a*b']), OPTS);
    expect(r).toMatchObject({ exitCode: 2, output: 'ls: rt/*a*a*a*a*a*a*a*a*a*a*a*b: No such file or directory\n' });
  }, 15_000);

  it.each(['rt/a*b', 'rt/[x].txt'])('a name holding pattern characters is listed as itself: %s', async (name) => {
    const r = await (await ws()).exec(singleCommand(['ls', name]), OPTS);
    expect(r).toMatchObject({ exitCode: 0, output: `${name}\n` });
  });
});
