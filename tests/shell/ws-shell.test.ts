/**
 * ws_shell on the memory and the Node backend: one table, every row run on both. The policy's
 * three answers (allow, gated, refuse), approval, timeouts that kill the process tree, output
 * capped while running with memory bounded, the explicit empty-output messages, ANSI stripped.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { decodeText } from '../../src/engine/text.ts';
import { isGatedShellCall } from '../../src/engine/tools/run-command.ts';
import { BACKENDS, cleanupBackends, shellEngine, shellWorkspace } from '../support/shell-backends.ts';
import { useNodeWasm } from '../support/node-wasm.ts';

afterAll(cleanupBackends);

const FILES = {
  'package.json': JSON.stringify({
    name: 'fixture',
    version: '1.0.0',
    type: 'module',
    scripts: { build: 'node build.js', test: 'node --test' },
  }),
  'src/a.js': 'export const a = 1;\n',
  'build.js': "console.log('built');\n",
  'spin.js': 'for (;;) {}\n',
  'env.js': 'console.log(process.env.NODE_ENV);\n',
  'flood.js': "const chunk = 'x'.repeat(1 << 20);\nfor (let i = 0; i < 100; i++) process.stdout.write(chunk);\n",
  'colour.js': "console.log('\\x1b[31mred\\x1b[0m and \\x1b[1mbold\\x1b[22m');\n",
};

interface Row {
  readonly what: string;
  readonly command: string;
  readonly approved?: boolean;
  readonly ok: boolean;
  /** The whole text, or a pattern it must match. */
  readonly text: string | RegExp;
  /** Details of 'shell' or 'refusal' notes the result must carry. */
  readonly notes?: readonly string[];
}

const rows: readonly Row[] = [
  {
    what: 'an allowed read command runs as its argv',
    command: 'cat src/a.js',
    ok: true,
    text: 'export const a = 1;\n[exit code 0]',
    notes: ['allow'],
  },
  {
    what: 'an allowed read-only pipeline runs as its checked stages, joined by pipes',
    command: 'grep -rn export src | wc -l',
    ok: true,
    text: /^\s*1\n\[exit code 0\]$/,
    notes: ['allow', 'pipeline'],
  },
  {
    what: 'command substitution is refused, naming the tier and what to do instead',
    command: 'cat $(ls)',
    ok: false,
    text: 'ws_shell did not run "cat $(ls)" — refused (tier never): command substitution "$(ls)" runs a second command. Run the inner command on its own call first, then pass its output as literal text.',
    notes: ['refuse', 'substitution'],
  },
  {
    what: 'a write redirection is refused, pointing at ws_write',
    command: 'echo hi > out.txt',
    ok: false,
    text: /^ws_shell did not run "echo hi > out.txt" — refused \(tier never\): the output redirection "> out.txt" writes a file from the shell\. Write files with ws_write/,
    notes: ['refuse', 'redirect-write'],
  },
  {
    what: "a gated command without approval asks for a person's approval and does not run",
    command: 'npm run build',
    ok: false,
    text: /^ws_shell did not run "npm run build": it needs a person's approval in the UI first, and the call runs once they approve it — needs approval \(tier gated\)/,
    notes: ['gated'],
  },
  {
    what: 'the same gated command runs once approved',
    command: 'npm run build',
    approved: true,
    ok: true,
    text: /> node build\.js\n+built\n\[exit code 0\]$/,
    notes: ['gated', 'approved'],
  },
  {
    what: 'empty output on success is said explicitly',
    command: 'true',
    ok: true,
    text: '(command succeeded with no output: true)',
  },
  {
    what: 'empty output on failure is said explicitly, with the exit code',
    command: 'grep zzz src/a.js',
    ok: false,
    text: '(command failed with exit code 1 and no output: grep zzz src/a.js)',
  },
  { what: 'ANSI colours are stripped', command: 'node colour.js', ok: true, text: 'red and bold\n[exit code 0]' },
  {
    what: 'NAME=value before a command becomes its environment',
    command: 'NODE_ENV=production node env.js',
    ok: true,
    text: 'production\n[exit code 0]',
  },
];

describe.each(BACKENDS)('ws_shell on the %s backend', (backend) => {
  it.each(rows)('$what', async (row) => {
    const ws = await shellWorkspace(backend, FILES);
    const engine = shellEngine(ws);
    const r = await engine.call('ws_shell', { command: row.command }, { approved: row.approved ?? false });
    if (typeof row.text === 'string') expect(r.text).toBe(row.text);
    else expect(r.text).toMatch(row.text);
    expect(r.ok).toBe(row.ok);
    const details = r.notes.filter((n) => n.kind === 'shell' || n.kind === 'refusal').map((n) => n.detail);
    for (const d of row.notes ?? []) expect(details).toContain(d);
    expect(await ws.lstat('out.txt')).toBeNull();
  });

  it('accepts cmd and command_line as aliases of command', async () => {
    const engine = shellEngine(await shellWorkspace(backend, FILES));
    for (const alias of ['cmd', 'command_line']) {
      const r = await engine.call('ws_shell', { [alias]: 'cat src/a.js' });
      expect(r.text).toBe('export const a = 1;\n[exit code 0]');
      expect(r.notes[0]).toEqual({ kind: 'alias', text: `${alias} accepted as command`, detail: alias });
    }
  });

  it('kills an endless program at timeout_ms and says the process tree was killed', async () => {
    const engine = shellEngine(await shellWorkspace(backend, FILES));
    const started = Date.now();
    const r = await engine.call('ws_shell', { command: 'node spin.js', timeout_ms: 800 });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(r.ok).toBe(false);
    expect(r.text).toMatch(
      /^\(command produced no output before it timed out: node spin\.js\)\n\[timed out after 0\.8 s: the command and every process it started were killed\./,
    );
    expect(r.notes).toContainEqual({
      kind: 'shell',
      text: 'timed out after 800 ms; process tree killed',
      detail: 'timeout',
    });
    expect(r.notes.find((n) => n.detail === 'backend')?.text).toMatch(
      /killed after \d+ ms \(the whole process group\)/,
    );
  });

  it('caps a requested timeout at shell_timeout_cap and says so', async () => {
    const engine = shellEngine(await shellWorkspace(backend, FILES), { shell_timeout_cap: 3000 });
    const r = await engine.call('ws_shell', { command: 'true', timeout_ms: 900_000 });
    expect(r.text).toBe(
      '(command succeeded with no output: true)\n[timeout_ms 900000 is above the cap; the command ran with 3000 ms (shell_timeout_cap).]',
    );
    expect(r.notes).toContainEqual({
      kind: 'shell',
      text: 'timeout_ms lowered to the cap 3000',
      detail: 'timeout-capped',
    });
  });

  it('caps 100 MB of output while it runs: head and tail shown, the total named, memory bounded', async () => {
    const engine = shellEngine(await shellWorkspace(backend, FILES));
    const before = process.memoryUsage().rss;
    const r = await engine.call('ws_shell', { command: 'node flood.js' });
    const grown = process.memoryUsage().rss - before;
    expect(r.ok).toBe(true);
    const total = Number(/the command wrote (\d+) bytes/.exec(r.text)?.[1]);
    expect(total).toBeGreaterThanOrEqual(100 * 2 ** 20);
    expect(total).toBeLessThan(100 * 2 ** 20 + 200);
    expect(r.text).toMatch(/^x{100,}/);
    expect(r.text).toMatch(/\[exit code 0\]$/);
    expect(r.text.length).toBeLessThanOrEqual(8000);
    // The output as a JS string would be 200 MB; what the test process may keep is far below even the 100 MB written.
    console.log(`ws_shell 100 MB flood on ${backend}: rss grew ${(grown / 2 ** 20).toFixed(1)} MB`);
    expect(grown).toBeLessThan(64 * 2 ** 20);
  });

  it('records a test tally found in the output as a note', async () => {
    const engine = shellEngine(
      await shellWorkspace(backend, {
        ...FILES,
        'a.test.js': "import { test } from 'node:test';\ntest('one', () => {});\n",
      }),
    );
    const r = await engine.call('ws_shell', { command: 'node --test' });
    expect(r.notes).toContainEqual({ kind: 'hint', text: 'test tally: 1 passed, 0 failed', detail: 'tally:1/0' });
  });

  it('runs nothing that changes files: the refused redirect left no file, the gated build wrote nothing', async () => {
    const ws = await shellWorkspace(backend, FILES);
    const engine = shellEngine(ws);
    await engine.call('ws_shell', { command: 'echo hi > out.txt' });
    expect(await ws.lstat('out.txt')).toBeNull();
    expect(decodeText(await ws.readFile('src/a.js'))).toBe(FILES['src/a.js']);
  });
});

describe('isGatedShellCall', () => {
  it.each([
    { tool: 'ws_shell', args: { command: 'npm run build' }, want: true },
    { tool: 'ws_shell', args: { cmd: 'npm install left-pad' }, want: true },
    { tool: 'ws_shell', args: { command_line: 'git commit -m x' }, want: true },
    { tool: 'ws_shell', args: { command: 'npm test' }, want: false },
    { tool: 'ws_shell', args: { command: 'rm -rf src' }, want: false },
    { tool: 'ws_shell', args: {}, want: false },
    { tool: 'ws_read', args: { command: 'npm run build' }, want: false },
  ])('$tool $args → $want', async ({ tool, args, want }) => {
    useNodeWasm();
    expect(await isGatedShellCall(tool, args)).toBe(want);
  });
});
