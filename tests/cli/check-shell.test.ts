/**
 * `slm check-shell`: one JSON line out per JSON line in, in order; malformed lines get a refuse
 * line saying what was wrong and the run goes on. In process through checkShellCommand, and
 * through the real CLI as other checks run it: one process for a batch of lines (the contract
 * answers every line in order), each given `cliTimeout` (a real process is slow under load).
 */
import { PassThrough } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeWasm } from '../support/node-wasm.ts';
import { checkShellCommand } from '../../src/cli/commands/check-shell.ts';
import { cliTimeout, runCli } from './cli-process.ts';

interface Answer {
  decision: string;
  tier: string;
  reason: string;
  rule: string;
  argv?: string[][];
}

beforeAll(() => useNodeWasm());

async function check(lines: readonly string[]): Promise<{ code: number; answers: Answer[] }> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let out = '';
  stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
  stdin.end(lines.join('\n'));
  const code = await checkShellCommand(stdin, stdout);
  return {
    code,
    answers: out
      .trimEnd()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Answer),
  };
}

describe('slm check-shell', () => {
  it('answers each command line with its decision, in order', async () => {
    const { code, answers } = await check([
      JSON.stringify({ cmd: 'ls -la | wc -l' }),
      JSON.stringify({ cmd: 'npm install' }),
      JSON.stringify({ cmd: 'ls > out.txt' }),
    ]);
    expect(code).toBe(0);
    expect(answers.map((a) => [a.decision, a.tier])).toEqual([
      ['allow', 'free'],
      ['gated', 'gated'],
      ['refuse', 'never'],
    ]);
    expect(answers[0]!.argv).toEqual([
      ['ls', '-la'],
      ['wc', '-l'],
    ]);
    expect(answers[2]!.reason).toContain('"> out.txt"');
  });

  const malformed: readonly (readonly [string, RegExp])[] = [
    ['not json', /not valid JSON/],
    ['[1, 2]', /not a JSON object/],
    ['"ls"', /not a JSON object/],
    ['null', /not a JSON object/],
    ['{"command": "ls"}', /no "cmd" string/],
    ['{"cmd": 42}', /its cmd is a number/],
    ['{"cmd": null}', /its cmd is a null/],
  ];
  it.each(malformed)('answers the malformed line %j with refuse (%s) and goes on', async (line, reason) => {
    const { code, answers } = await check([line, '', JSON.stringify({ cmd: 'ls' })]);
    expect(code).toBe(0);
    expect(answers).toHaveLength(2);
    expect(answers[0]).toMatchObject({ decision: 'refuse', tier: 'never', rule: 'bad-input' });
    expect(answers[0]!.reason).toMatch(reason);
    expect(answers[1]!.decision).toBe('allow');
  });

  it(
    'runs as `slm check-shell` through the real CLI',
    async () => {
      const r = await runCli(
        ['check-shell'],
        `${JSON.stringify({ cmd: 'git status' })}\n{oops\n${JSON.stringify({ cmd: 'rm -rf /' })}\n`,
      );
      expect(r.code).toBe(0);
      const answers = r.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as Answer);
      expect(answers.map((a) => a.decision)).toEqual(['allow', 'refuse', 'refuse']);
      expect(answers[1]!.rule).toBe('bad-input');
    },
    cliTimeout(1),
  );

  it(
    'refuses arguments: the commands come on stdin',
    async () => {
      const r = await runCli(['check-shell', 'ls'], '');
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('takes no arguments');
    },
    cliTimeout(1),
  );
});
