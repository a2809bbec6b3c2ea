/**
 * The memory workspace's runner: just-bash over the workspace files, `npm` running package.json
 * scripts, `npx` and other npm commands explained, output bounded, timeouts and cancels.
 * `node` here is real Node (node-runner.ts), as on any Node host.
 */
import { describe, expect, it } from 'vitest';
import { MemoryWorkspace } from './memory-workspace.ts';
import { capHeadTail, SHELL_LIVE_OUTPUT_BYTES, ShellRunner } from './shell-runner.ts';
import { NodeJsEngine } from './node-runner.ts';
import { singleCommand, type ExecOptions } from '../../engine/workspace.ts';
import { useNodeWasm } from '../../../tests/support/node-wasm.ts';

// npm reads package.json scripts with the shell policy, which parses with tree-sitter-bash.
useNodeWasm();

const OPTS: ExecOptions = { timeoutMs: 20_000, maxOutputBytes: 64 * 1024 };

async function workspace(files: Readonly<Record<string, string>>): Promise<MemoryWorkspace> {
  const ws = new MemoryWorkspace(undefined, undefined, new ShellRunner(new NodeJsEngine()));
  for (const [p, t] of Object.entries(files)) await ws.writeFile(p, new TextEncoder().encode(t));
  return ws;
}

const PKG = JSON.stringify({
  name: 'demo',
  version: '2.0.0',
  scripts: {
    pretest: 'node say.js pre',
    test: 'node say.js testing',
    posttest: 'node say.js post',
    show: 'node say.js args:',
    fails: 'node fail.js',
    nodey: 'node hello.js',
    lint: 'eslint .',
  },
});

describe('npm in the offline shell', () => {
  it.each([
    {
      what: "npm test runs pre, main and post scripts with npm's headers",
      argv: ['npm', 'test'],
      exit: 0,
      output:
        '\n> demo@2.0.0 pretest\n> node say.js pre\n\npre\n\n> demo@2.0.0 test\n> node say.js testing\n\ntesting\n\n> demo@2.0.0 posttest\n> node say.js post\n\npost\n',
    },
    {
      what: 'arguments after -- reach the script, quoted',
      argv: ['npm', 'run', 'show', '--', "it's", 'two words'],
      exit: 0,
      output: "\n> demo@2.0.0 show\n> node say.js args: 'it'\\''s' 'two words'\n\nargs: it's two words\n",
    },
    {
      what: 'a failing script stops the run with its exit code',
      argv: ['npm', 'run', 'fails'],
      exit: 2,
      output: '\n> demo@2.0.0 fails\n> node fail.js\n\nfailing\n',
    },
    {
      what: 'a script whose command is not a runner here says what could not run and why',
      argv: ['npm', 'run', 'lint'],
      exit: 1,
      output:
        /^\n> demo@2\.0\.0 lint\n> eslint \.\n\nnpm error the "lint" script "eslint \." could not run in the memory workspace: "eslint" is not a command the memory workspace has for scripts \(it runs node, jest, vitest, mocha, pytest, python, python3\)\.\n/,
    },
    {
      what: 'a script that runs node reaches the JavaScript engine',
      argv: ['npm', 'run', 'nodey'],
      exit: 0,
      output: '\n> demo@2.0.0 nodey\n> node hello.js\n\nhello from node\n',
    },
    {
      what: "a missing script is npm's own error",
      argv: ['npm', 'run', 'nope'],
      exit: 1,
      output:
        'npm error Missing script: "nope"\nnpm error\nnpm error To see a list of scripts, run:\nnpm error   npm run\n',
    },
    {
      what: 'npm run lists the scripts',
      argv: ['npm', 'run'],
      exit: 0,
      output: /^Scripts available via `npm run`:\n {2}pretest\n {4}node say.js pre\n/,
    },
    {
      what: 'npm install says what is unavailable offline',
      argv: ['npm', 'install', 'left-pad'],
      exit: 1,
      output:
        'npm install is not available in the offline workspace: there is no registry and no node_modules here. npm runs package.json scripts only (npm test, npm run NAME).\n',
    },
    {
      what: 'npx of a package says the same and where tests run instead',
      argv: ['npx', 'tsc'],
      exit: 127,
      output:
        /^npx tsc is not available in the offline workspace: .*Run tests with jest, vitest run, mocha or node --test, or npm/,
    },
    {
      what: "npx of a test runner runs the workspace's own runner",
      argv: ['npx', 'jest', '--ci'],
      exit: 1,
      output: /^No tests found in \/ws: the runner looks for \*\.spec\.js, \*\.test\.js/,
    },
  ])('$what', async ({ argv, exit, output }) => {
    const ws = await workspace({
      'package.json': PKG,
      'hello.js': "console.log('hello from node');\n",
      'say.js': "console.log(process.argv.slice(2).join(' '));\n",
      'fail.js': "console.log('failing');\nprocess.exit(2);\n",
    });
    const r = await ws.exec(singleCommand(argv), OPTS);
    if (typeof output === 'string') expect(r.output).toBe(output);
    else expect(r.output).toMatch(output);
    expect(r.exitCode).toBe(exit);
  });

  it('finds package.json above the working directory, and says when there is none', async () => {
    const ws = await workspace({
      'package.json': PKG,
      'src/x.js': '',
      'say.js': "console.log(process.argv.slice(2).join(' '));\n",
    });
    expect((await ws.exec(singleCommand(['npm', 'test']), { ...OPTS, cwd: 'src' })).output).toContain('testing\n');
    const bare = await workspace({ 'a.txt': '' });
    const r = await bare.exec(singleCommand(['npm', 'test']), OPTS);
    expect(r).toMatchObject({
      exitCode: 254,
      output:
        'npm error code ENOENT\nnpm error Could not read package.json: no package.json in /ws or above it in the workspace\n',
    });
  });
});

describe('ShellRunner', () => {
  it("passes argv unparsed and the environment as the command's own", async () => {
    const ws = await workspace({ 'a b.txt': 'spaced\n' });
    expect((await ws.exec(singleCommand(['cat', 'a b.txt']), OPTS)).output).toBe('spaced\n');
    expect((await ws.exec(singleCommand(['echo', '$HOME', '*', '$(id)']), OPTS)).output).toBe('$HOME * $(id)\n');
    const env = await ws.exec(singleCommand(['printenv', 'GREETING']), {
      ...OPTS,
      env: { GREETING: "it's here", 'BAD NAME': 'x' },
    });
    expect(env.output).toBe("it's here\n");
  });

  it('starts each command in a fresh shell at the root', async () => {
    const ws = await workspace({ 'src/a.txt': '' });
    await ws.exec(singleCommand(['cd', 'src']), OPTS);
    expect((await ws.exec(singleCommand(['pwd']), OPTS)).output).toBe('/ws\n');
    expect((await ws.exec(singleCommand(['pwd']), { ...OPTS, cwd: 'src' })).output).toBe('/ws/src\n');
  });

  it('reports a command just-bash does not have as exit 127, with where it ran', async () => {
    const r = await (await workspace({})).exec(singleCommand(['gcc', 'x.c']), OPTS);
    expect(r.exitCode).toBe(127);
    expect(r.output).toBe('bash: gcc: command not found\n');
    expect(r.backendNote).toBe('ran in just-bash (the in-memory shell; about 80 commands, no network)');
  });

  it('stops a command at its timeout, and on a cancel', async () => {
    const ws = await workspace({});
    const started = Date.now();
    const timed = await ws.exec(singleCommand(['sleep', '10']), { ...OPTS, timeoutMs: 300 });
    expect(timed).toMatchObject({ exitCode: null, timedOut: true, output: '' });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 200);
    const cancelled = await ws.exec(singleCommand(['sleep', '10']), { ...OPTS, signal: ac.signal });
    expect(cancelled).toMatchObject({ exitCode: null, timedOut: false });
    expect(await ws.exec(singleCommand(['echo', 'never']), { ...OPTS, signal: AbortSignal.abort() })).toMatchObject({
      exitCode: null,
      output: '',
    });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('keeps what node printed before a timeout killed it', async () => {
    const ws = await workspace({ 'spin.js': "console.log('working on test 3');\nfor (;;) {}\n" });
    const r = await ws.exec(singleCommand(['node', 'spin.js']), { ...OPTS, timeoutMs: 3000 });
    expect(r).toMatchObject({ exitCode: null, timedOut: true, output: 'working on test 3\n' });
    expect(r.backendNote).toMatch(/node ran in Node v\d+.*killed after \d+ ms \(the whole process group\)/);
  });

  it('stops output past its live limit while running, and keeps head and tail of what it returns', async () => {
    const ws = await workspace({});
    await ws.fs.writeFile('/ws/big.txt', `START${'y'.repeat(SHELL_LIVE_OUTPUT_BYTES)}END`);
    const r = await ws.exec(singleCommand(['cat', 'big.txt']), { ...OPTS, maxOutputBytes: 1000 });
    expect(r.truncated).toBe(true);
    expect(r.output.length).toBeLessThan(1100);
    expect(r.backendNote).toContain(
      `just-bash stopped the command when its output passed ${SHELL_LIVE_OUTPUT_BYTES} bytes`,
    );
  });

  it.each([
    { text: 'short', max: 10, want: { text: 'short', truncated: false } },
    { text: 'abcdefghij', max: 4, want: { text: 'ab\n… [6 bytes of output omitted] …\nij', truncated: true } },
    { text: 'aé€b', max: 2, want: { text: 'a\n… [5 bytes of output omitted] …\nb', truncated: true } },
  ])('capHeadTail($text, $max)', ({ text, max, want }) => expect(capHeadTail(text, max)).toEqual(want));
});
