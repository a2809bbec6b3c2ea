/** `slm call` through the real CLI: what it prints and its exit codes (0 ok, 1 refused/failed, 2 usage). */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, runCli, tempRoot } from './cli-process.ts';

let root: string;
beforeAll(async () => {
  root = await tempRoot();
  await writeFile(join(root, 'a.txt'), 'alpha\nbeta\n');
});
afterAll(cleanup);

describe('slm call', () => {
  it('prints the result text the model sees and exits 0 when the tool succeeds', async () => {
    const r = await runCli(['call', 'ws_read', '{"path":"a.txt"}', '--root', root]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ +1\|alpha\n +2\|beta\n/m);
    expect(r.stderr).toBe('');
  });

  it('exits 1 and prints the refusal when the tool refuses', async () => {
    const r = await runCli(['call', 'ws_read', '{"path":"missing.txt"}', '--root', root]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('missing.txt');
  });

  it('exits 1 for an unknown tool, naming the available ones', async () => {
    const r = await runCli(['call', 'ws_nope', '{}', '--root', root]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/Unknown tool "ws_nope"\. Available tools: .*ws_read/);
  });

  it('--json prints one line {ok, text, notes}; --settings reaches the engine', async () => {
    const r = await runCli([
      'call',
      'ws_read',
      '{"path":"a.txt"}',
      '--root',
      root,
      '--json',
      '--settings',
      '{"max_tool_chars":400}',
    ]);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines).toHaveLength(2);
    const out = JSON.parse(lines[0]!) as { ok: boolean; text: string; notes: unknown[] };
    expect(out.ok).toBe(true);
    expect(out.text).toContain('alpha');
    expect(Array.isArray(out.notes)).toBe(true);
  });

  const usageRows: ReadonlyArray<{ why: string; args: (root: string) => string[]; stderr: RegExp }> = [
    {
      why: 'JSON_ARGS that is not JSON',
      args: (d) => ['call', 'ws_read', '{path:a.txt}', '--root', d],
      stderr: /JSON_ARGS is not valid JSON/,
    },
    {
      why: 'JSON_ARGS that is not an object',
      args: (d) => ['call', 'ws_read', '["a.txt"]', '--root', d],
      stderr: /JSON_ARGS must be a JSON object/,
    },
    { why: 'no tool name', args: (d) => ['call', '--root', d], stderr: /name the tool to call/ },
    { why: 'no --root', args: () => ['call', 'ws_read', '{"path":"a.txt"}'], stderr: /--root DIR is required/ },
    {
      why: 'a root that does not exist',
      args: (d) => ['call', 'ws_read', '{}', '--root', join(d, 'nope')],
      stderr: /does not exist/,
    },
    {
      why: 'an unknown option',
      args: (d) => ['call', 'ws_read', '{}', '--root', d, '--verbose'],
      stderr: /Unknown option '--verbose'/,
    },
    {
      why: 'bad --settings',
      args: (d) => ['call', 'ws_read', '{}', '--root', d, '--settings', '{"max_chars":1}'],
      stderr: /unknown setting "max_chars"/,
    },
    {
      why: 'an unknown command',
      args: () => ['frobnicate'],
      stderr: /unknown command "frobnicate"[\s\S]*usage: slm COMMAND/,
    },
  ];
  it.concurrent.each(usageRows)('exits 2 with a message on stderr for $why', async ({ args, stderr }) => {
    const r = await runCli(args(root));
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(stderr);
  });
});
