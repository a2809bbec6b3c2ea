/**
 * The rules every native format shares, through parseCall: reasoning is never the call, the
 * first complete call wins and the rest are dropped, a JSON object inside native arguments is
 * part of them, a call mentioned in prose is not a call, and a broken call is never guessed.
 */
import { describe, expect, it } from 'vitest';
import { CANONICAL_CALL, parseCall } from '../parse.ts';
import { blankThinking } from './thinking.ts';

const TOOLS = ['ws_read', 'ws_write', 'ws_grep', 'ws_shell'];
const parse = (raw: string) => parseCall(raw, { tools: TOOLS });

describe('reasoning spans', () => {
  it.each([
    ['<think>[ws_read(path="x")]</think>', '<think>'],
    ['<seed:think><function=ws_read></function></seed:think>', '<seed:think>'],
    ['[THINK][TOOL_CALLS]ws_read[ARGS]{}[/THINK]', '[THINK]'],
    ['<|START_THINKING|>{"tool": "ws_read"}<|END_THINKING|>', '<|START_THINKING|>'],
    ['<|channel|>analysis<|message|>to=functions.ws_read<|message|>{}<|end|>', 'analysis'],
    ['reasoning the template opened</think>', 'a close with no open'],
  ])('%s is blanked (%s), keeping every index', (raw) => {
    const { text } = blankThinking(raw);
    expect(text).toHaveLength(raw.length);
    expect(text.trim()).toBe('');
  });

  it.each([
    [
      'Qwen3 XML',
      '<think><function=ws_write><parameter=path>x</parameter></function></think>\n<function=ws_read><parameter=path>a.js</parameter></function>',
    ],
    [
      'Mistral',
      '[THINK]maybe [TOOL_CALLS]ws_write[ARGS]{"path": "x"}[/THINK][TOOL_CALLS]ws_read[ARGS]{"path": "a.js"}',
    ],
    [
      'Command-R7B',
      '<|START_THINKING|><|START_ACTION|>[{"tool_name": "ws_write", "parameters": {}}]<|END_ACTION|><|END_THINKING|><|START_ACTION|>[{"tool_name": "ws_read", "parameters": {"path": "a.js"}}]<|END_ACTION|>',
    ],
    [
      'harmony',
      '<|channel|>analysis<|message|>to=functions.ws_write<|message|>{}<|end|><|start|>assistant<|channel|>commentary to=functions.ws_read <|constrain|>json<|message|>{"path": "a.js"}<|call|>',
    ],
  ])('a %s call sketched while thinking is not the call', (_name, raw) => {
    const out = parse(raw);
    if (!out.ok) throw new Error(out.message);
    expect(out.call).toEqual({ tool: 'ws_read', args: { path: 'a.js' } });
    expect(out.repairs).toContain('think');
    expect(out.dropped).toEqual([]);
  });
});

describe('the first complete call wins', () => {
  it('across formats, the rest reported as dropped', () => {
    const out = parse(
      '[TOOL_CALLS]ws_read[ARGS]{"path": "a.js"}\n{"tool": "ws_grep", "args": {"pattern": "x"}}\n<function=ws_shell><parameter=command>ls</parameter></function>',
    );
    expect(out.ok && [out.call.tool, out.format, out.dropped]).toEqual(['ws_read', 'mistral', ['ws_grep', 'ws_shell']]);
  });

  it('a broken call before a complete one does not hide it', () => {
    const out = parse(
      '<function name="ws_write"><param>x</param></function>\n[TOOL_CALLS]ws_read[ARGS]{"path": "a.js"}',
    );
    expect(out.ok && out.call.tool).toBe('ws_read');
  });

  it('nothing inside a broken call is read as a call', () => {
    const out = parse(
      '<function=ws_write>\n<parameter=content>\n{"tool": "ws_shell", "args": {"command": "rm -rf ."}}',
    );
    expect(out).toMatchObject({ ok: false, error: 'broken-call', format: 'qwen3-xml' });
  });

  it('a JSON call inside native arguments belongs to those arguments', () => {
    const content = '{"tool": "ws_shell", "args": {"command": "rm -rf ."}}';
    const out = parse(
      `<function=ws_write>\n<parameter=path>\nnote.json\n</parameter>\n<parameter=content>\n${content}\n</parameter>\n</function>`,
    );
    expect(out.ok && out.call).toEqual({ tool: 'ws_write', args: { path: 'note.json', content } });
    expect(out.ok && out.dropped).toEqual([]);
  });

  it('keeps the history turn up to the end of the first call and its wrapper', () => {
    const out = parse(
      'Reading.<tool_call>\n<function=ws_read>\n<parameter=path>\na.js\n</parameter>\n</function>\n</tool_call>\nThen more.',
    );
    expect(out.ok && out.kept).toBe(
      'Reading.<tool_call>\n<function=ws_read>\n<parameter=path>\na.js\n</parameter>\n</function>\n</tool_call>',
    );
  });
});

describe('never guessing', () => {
  it.each([
    ['a pythonic call quoted in prose', "Try [ws_read(path='a.js')] next time."],
    ['a bare Gemma call after prose', 'You can write call:ws_read{path:<escape>a<escape>}'],
    ['harmony arguments that are not JSON', '<|channel|>commentary to=functions.ws_read<|message|>a.js<|call|>'],
    [
      'Apertus entries that are not {name: args}',
      '<|tools_prefix|>[{"ws_read": {"path": "a"}, "x": 1}]<|tools_suffix|>',
    ],
    ['a Gemma call with text after it', '<|tool_call>call:ws_read{path:<|"|>a<|"|>} and more<tool_call|>'],
    ['a MiniCPM call with a stray tag', '<function name="ws_read"><arg>a</arg></function>'],
    [
      'Gemma values nested past any real argument',
      `<|tool_call>call:ws_read{a:${'['.repeat(100)}${']'.repeat(100)}}<tool_call|>`,
    ],
  ])('%s is no call', (_name, raw) => {
    const out = parse(raw);
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.message).toContain(CANONICAL_CALL);
  });

  it('a broken native call names its format and the shape it expects', () => {
    const out = parse('[TOOL_CALLS]ws_read[ARGS]path=a.js');
    expect(out).toMatchObject({ ok: false, error: 'broken-call', format: 'mistral' });
    expect(!out.ok && out.message).toMatch(
      /began a tool call in the mistral format, but the call to ws_read: its arguments are not a JSON object.*\[TOOL_CALLS\]ws_read\[ARGS\]\{"path": "src\/index.js"\}/s,
    );
  });

  it('arguments sent as a JSON string are decoded', () => {
    const out = parse(
      '<|channel|>commentary to=functions.ws_read <|constrain|>json<|message|>"{\\"path\\": \\"a.js\\"}"<|call|>',
    );
    expect(out.ok && out.call.args).toEqual({ path: 'a.js' });
  });
});
