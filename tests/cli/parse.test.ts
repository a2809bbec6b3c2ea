/**
 * `slm parse`: one JSON line out per JSON line in, in order — the call, the format it was read
 * in, or why there is no call; malformed lines get an error saying what was wrong and the run
 * goes on. In process through parseLinesCommand, and through the real CLI as other checks run it.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parseLinesCommand, type ParseAnswer } from '../../src/cli/commands/parse.ts';
import { runCli } from './cli-process.ts';

async function parse(lines: readonly string[]): Promise<{ code: number; answers: ParseAnswer[] }> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let out = '';
  stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
  stdin.end(lines.join('\n'));
  const code = await parseLinesCommand(stdin, stdout);
  return {
    code,
    answers: out
      .trimEnd()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as ParseAnswer),
  };
}

const line = (raw: string, tools?: string[]): string => JSON.stringify({ raw, ...(tools && { tools }) });

describe('slm parse', () => {
  it('answers each output with its call and format, or why there is none, in order', async () => {
    const { code, answers } = await parse([
      line('{"tool": "ws_read", "args": {"path": "a.js"}}'),
      line('<tool_call>\n<function=ws_shell>\n<parameter=command>\nnpm test\n</parameter>\n</function>\n</tool_call>'),
      line("[ws_read(path='a.js', limit=5)]"),
      line('All done!'),
      line('<function=ws_read>\n<parameter=path>\na.js'),
    ]);
    expect(code).toBe(0);
    expect(answers.slice(0, 3)).toEqual([
      { call: { tool: 'ws_read', args: { path: 'a.js' } }, format: 'json', error: null },
      { call: { tool: 'ws_shell', args: { command: 'npm test' } }, format: 'qwen3-xml', error: null },
      { call: { tool: 'ws_read', args: { path: 'a.js', limit: 5 } }, format: 'pythonic', error: null },
    ]);
    expect(answers[3]).toMatchObject({ call: null, format: null });
    expect(answers[3]!.error).toMatch(/no tool call/);
    expect(answers[4]!.error).toMatch(/qwen3-xml format, but the parameter path never closes/);
  });

  it("reads an XML-style call's text values by the coding tools' argument types, as the loop does", async () => {
    const { answers } = await parse([
      line('<function=ws_todo><parameter=items>["read", "fix"]</parameter></function>'),
      line(
        '<function name="ws_grep"><param name="pattern">x</param><param name="case_insensitive">True</param></function>',
      ),
    ]);
    expect(answers.map((a) => a.call)).toEqual([
      { tool: 'ws_todo', args: { items: ['read', 'fix'] } },
      { tool: 'ws_grep', args: { pattern: 'x', case_insensitive: true } },
    ]);
  });

  it('uses the tools a line names for a bare {"name": …} object', async () => {
    const raw = '{"name": "my_tool", "path": "a.js"}';
    const { answers } = await parse([line(raw), line(raw, ['my_tool'])]);
    expect(answers[0]!.call).toBeNull();
    expect(answers[1]!.call).toEqual({ tool: 'my_tool', args: { path: 'a.js' } });
  });

  const malformed: readonly (readonly [string, RegExp])[] = [
    ['not json', /not valid JSON/],
    ['[1, 2]', /not a JSON object/],
    ['null', /not a JSON object/],
    ['{"text": "x"}', /no "raw" string/],
    ['{"raw": 42}', /its raw is a number/],
    ['{"raw": "x", "tools": "ws_read"}', /"tools" is not a list of tool names/],
  ];
  it.each(malformed)('answers the malformed line %j with an error (%s) and goes on', async (bad, reason) => {
    const { code, answers } = await parse([bad, '', line('{"tool": "done", "args": {"summary": "ok"}}')]);
    expect(code).toBe(0);
    expect(answers).toHaveLength(2);
    expect(answers[0]).toMatchObject({ call: null, format: null });
    expect(answers[0]!.error).toMatch(reason);
    expect(answers[0]!.error).toContain('Send one object per line');
    expect(answers[1]!.call?.tool).toBe('done');
  });

  it('runs as `slm parse` through the real CLI', async () => {
    const r = await runCli(
      ['parse'],
      `${line('[TOOL_CALLS]ws_read[ARGS]{"path": "a.js"}')}\n{oops\n${line('<think>{"tool": "ws_read", "args": {}}</think>')}\n`,
    );
    expect(r.code).toBe(0);
    const answers = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as ParseAnswer);
    expect(answers.map((a) => a.format)).toEqual(['mistral', null, null]);
    expect(answers[0]!.call).toEqual({ tool: 'ws_read', args: { path: 'a.js' } });
    expect(answers[1]!.error).toMatch(/not valid JSON/);
    expect(answers[2]!.error).toMatch(/no tool call/);
  });

  it('refuses arguments with exit 2: the outputs come on stdin', async () => {
    const r = await runCli(['parse', 'x.jsonl'], '');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('takes no arguments');
  });

  it('is listed in the overview', async () => {
    const r = await runCli(['--help']);
    expect(r.stdout).toMatch(/^ {2}parse +\S/m);
  });
});
