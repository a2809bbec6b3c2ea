/**
 * The CLI's manners, as Node tools have them: `--version`/`-V`, `help [COMMAND]`, `--help`/`-h` on
 * every command (stdout, exit 0), a one-line-per-command overview, a reader closing the pipe early
 * ends the command quietly with exit 0, and the exit codes that were there before stay as they were.
 * One table row per rule, in process through runSlm; the process-level rules through the real CLI.
 */
import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/command.ts';
import { COMMANDS, runSlm } from '../../src/cli/slm.ts';
import { runCli } from './cli-process.ts';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const NAMES = Object.keys(COMMANDS);

async function slm(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
  stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
  const stdin = new PassThrough();
  stdin.end();
  const code = await runSlm(args, { stdin, stdout, stderr });
  return { code, stdout: out, stderr: err };
}

/** The overview's command lines: two spaces, a name, its summary. */
function commandLines(text: string): string[] {
  return text.split('\n').filter((l) => /^ {2}\S/.test(l));
}

describe('slm --version', () => {
  it.each([['--version'], ['-V']])('%s prints the version of slm and its engine on stdout, exit 0', async (flag) => {
    const r = await slm([flag]);
    expect(r).toEqual({
      code: EXIT.ok,
      stdout: expect.stringMatching(/^slm \d+\.\d+\.\d+ \(engine \S+\+[0-9a-f]+\)\n$/),
      stderr: '',
    });
  });
});

describe('slm help overview', () => {
  it.each([[['help']], [['--help']], [['-h']]])(
    '%j lists each command on one line, on stdout, exit 0',
    async (args) => {
      const r = await slm(args);
      expect(r.code).toBe(EXIT.ok);
      expect(r.stderr).toBe('');
      const lines = commandLines(r.stdout);
      expect(lines.map((l) => l.trim().split(/\s+/)[0])).toEqual(NAMES);
      for (const l of lines) expect(l.trim().split(/\s{2,}/)[1]?.length).toBeGreaterThan(10);
      expect(r.stdout).toContain('slm help COMMAND');
    },
  );
});

describe('help on every command', () => {
  const rows = NAMES.flatMap((name) => [
    { name, args: ['help', name] },
    { name, args: [name, '--help'] },
    { name, args: [name, '-h'] },
    { name, args: [name, '--root', '.', '--help'] },
  ]);
  it.each(rows)('$args prints the usage of $name on stdout, exit 0', async ({ name, args }) => {
    const r = await slm(args);
    expect(r).toEqual({
      code: EXIT.ok,
      stdout: expect.stringMatching(new RegExp(`^usage:\\n  slm ${name}\\b`)),
      stderr: '',
    });
  });
});

describe('exit codes that were there before', () => {
  const rows: { why: string; args: string[]; stderr: RegExp }[] = [
    { why: 'no command', args: [], stderr: /^slm: name a command\n\nusage: slm COMMAND/ },
    { why: 'an unknown command', args: ['nope'], stderr: /^slm: unknown command "nope"\n\nusage: slm COMMAND/ },
    { why: 'help for an unknown command', args: ['help', 'nope'], stderr: /^slm help: unknown command "nope"/ },
    { why: 'help for two commands', args: ['help', 'run', 'call'], stderr: /^slm help: takes one command/ },
    {
      why: '--help after --, read as an argument',
      args: ['parse', '--', '--help'],
      stderr: /^slm parse: takes no arguments/,
    },
    { why: 'a usage error', args: ['parse', 'extra'], stderr: /takes no arguments[^]*\n\nusage:\n {2}slm parse/ },
  ];
  it.each(rows)('$why: usage on stderr, exit 2', async ({ args, stderr }) => {
    const r = await slm(args);
    expect(r.code).toBe(EXIT.usage);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(stderr);
  });
});

describe('the real CLI', () => {
  it('runs from the checkout through bin/slm.js (package.json bin)', async () => {
    const pkg = (await import('../../package.json', { with: { type: 'json' } })).default as {
      bin?: Record<string, string>;
    };
    expect(pkg.bin?.slm).toBe('bin/slm.js');
    const r = await new Promise<{ code: number | null; stdout: string }>((done, fail) => {
      const child = spawn(process.execPath, [join(REPO, 'bin/slm.js'), 'run', '--help'], { cwd: REPO });
      let stdout = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
      child.on('error', fail);
      child.on('close', (code) => done({ code, stdout }));
    });
    expect(r.code).toBe(EXIT.ok);
    expect(r.stdout).toMatch(/^usage:\n {2}slm run --model SPEC/);
  }, 120_000);

  it('ends quietly with exit 0 when the reader closes the pipe (slm parse < big | head -1)', async () => {
    const line = `${JSON.stringify({ raw: '{"tool": "ws_read", "args": {"path": "a.js"}}' })}\n`;
    const child = spawn(join(REPO, 'node_modules/.bin/tsx'), [join(REPO, 'src/cli/main.ts'), 'parse'], { cwd: REPO });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    // Read the first answer line, then close our end, as head -1 does; keep feeding input meanwhile.
    const first = new Promise<string>((done) => {
      let out = '';
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString('utf8');
        if (out.includes('\n')) {
          child.stdout.destroy();
          done(out.slice(0, out.indexOf('\n')));
        }
      });
    });
    child.stdin.on('error', () => {}); // the child may end before it reads all the input
    const feed = (): void => {
      while (child.stdin.writable && child.stdin.write(line.repeat(1000)));
      if (child.stdin.writable) child.stdin.once('drain', feed);
    };
    feed();
    const code = await new Promise<number | null>((done) => child.on('close', done));
    expect(JSON.parse(await first)).toMatchObject({ call: { tool: 'ws_read' }, format: 'json' });
    expect(stderr).toBe('');
    expect(code).toBe(EXIT.ok);
  }, 120_000);

  it('answers --version as npm run -s slm runs it (tsx src/cli/main.ts)', async () => {
    const r = await runCli(['--version']);
    expect(r.code).toBe(EXIT.ok);
    expect(r.stdout).toMatch(/^slm \d/);
  }, 120_000);
});
