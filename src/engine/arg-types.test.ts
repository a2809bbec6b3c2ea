/** Argument mistakes, told right: unambiguous string forms are coerced and noted; the rest is named with the type expected and what was sent. */
import { describe, expect, it } from 'vitest';
import { seedWorkspace } from '../../tests/support/file-tools.ts';
import { Engine } from './engine.ts';
import { CODING_TOOLS } from './tools/index.ts';

/** Every coding tool over the seed, the file already read (edits need that), the syntax check off. */
async function fileEngine(seed: Record<string, string>): Promise<{ engine: Engine }> {
  const engine = new Engine({
    workspace: await seedWorkspace(seed),
    tools: CODING_TOOLS,
    settings: { loop_guard: false, syntax_check: false },
  });
  for (const path of Object.keys(seed)) await engine.call('ws_read', { path });
  return { engine };
}

const SEED = {
  'src/math.js':
    'export const add = (a, b) => a + b;\nexport const sub = (a, b) => a - b;\nexport const mul = (a, b) => a * b;\n',
};

describe('argument types', () => {
  it.each([
    {
      what: 'a numeric string for an integer is read as the integer, and said',
      tool: 'ws_read',
      args: { path: 'src/math.js', limit: '1' },
      ok: true,
      text: /add/,
      note: 'limit: the string "1" was read as the integer 1; send it without quotes',
    },
    {
      what: 'a numeric string with blanks is read too',
      tool: 'ws_read',
      args: { path: 'src/math.js', offset: ' 2 ' },
      ok: true,
      text: /sub/,
      note: 'offset: the string " 2 " was read as the integer 2; send it without quotes',
    },
    {
      what: '"true" for a boolean is read as true',
      tool: 'ws_edit',
      args: { path: 'src/math.js', old_str: '(a, b)', new_str: '(x, y)', replace_all: 'true' },
      ok: true,
      text: /3 /,
      note: 'replace_all: the string "true" was read as the boolean true; send it without quotes',
    },
  ])('$what', async ({ tool, args, ok, text, note }) => {
    const { engine } = await fileEngine(SEED);
    const r = await engine.call(tool, args);
    expect(r.ok).toBe(ok);
    expect(r.text).toMatch(text);
    expect(r.notes).toContainEqual(expect.objectContaining({ kind: 'coerced', text: note }));
  });

  it.each([
    {
      what: 'a number for a path names the type and the value',
      tool: 'ws_read',
      args: { path: 42 },
      line: '- path: expected a string (in double quotes), but got the number 42',
    },
    {
      what: 'a non-numeric string for an integer is not guessed',
      tool: 'ws_read',
      args: { path: 'src/math.js', limit: 'ten' },
      line: '- limit: expected an integer (a number without quotes, e.g. 120), but got the string "ten"',
    },
    {
      what: 'a fractional string for an integer is not rounded',
      tool: 'ws_read',
      args: { path: 'src/math.js', limit: '2.5' },
      line: '- limit: expected an integer (a number without quotes, e.g. 120), but got the string "2.5"',
    },
    {
      what: 'a number for old_str is named, not called missing',
      tool: 'ws_edit',
      args: { path: 'src/math.js', old_str: 123, new_str: 'x' },
      line: '- old_str: expected a string (in double quotes), but got the number 123',
    },
    {
      what: 'a missing required argument is still missing',
      tool: 'ws_read',
      args: {},
      line: '- path: missing (required)',
    },
    {
      what: '"yes" for a boolean is not guessed',
      tool: 'ws_edit',
      args: { path: 'src/math.js', old_str: 'a', new_str: 'b', replace_all: 'yes' },
      line: '- replace_all: expected true or false (without quotes), but got the string "yes"',
    },
  ])('$what', async ({ tool, args, line }) => {
    const { engine } = await fileEngine(SEED);
    const r = await engine.call(tool, args);
    expect(r.ok).toBe(false);
    expect(r.text.split('\n')).toContain(line);
  });

  it('the example call shows real types, so copying it works', async () => {
    const { engine } = await fileEngine(SEED);
    const r = await engine.call('ws_read', { path: 42 });
    const example = /e\.g\. ws_read (\{.*\})$/m.exec(r.text)?.[1];
    expect(example).toBeDefined();
    const args = JSON.parse(example!) as Record<string, unknown>;
    expect(args).toMatchObject({ path: 'src/index.js', offset: 1, limit: 120 });
    const { engine: again } = await fileEngine({ 'src/index.js': 'x\n' });
    expect((await again.call('ws_read', args)).ok).toBe(true);
  });
});
