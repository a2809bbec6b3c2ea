/** Runs the real `slm` CLI (tsx src/cli/main.ts) as a child process, as a script would. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const TSX = join(REPO, 'node_modules/.bin/tsx');
const MAIN = join(REPO, 'src/cli/main.ts');

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function spawnCli(args: readonly string[], env?: NodeJS.ProcessEnv): ChildProcessWithoutNullStreams {
  return spawn(TSX, [MAIN, ...args], { cwd: REPO, stdio: 'pipe', ...(env && { env }) });
}

/**
 * Runs `slm ARGS` to completion with `input` on stdin (and `env` instead of this process's
 * environment); with `killAfterMs`, a run still going then is killed (its code is then null).
 */
export function runCli(
  args: readonly string[],
  input = '',
  env?: NodeJS.ProcessEnv,
  killAfterMs?: number,
): Promise<CliRun> {
  const child = spawnCli(args, env);
  if (killAfterMs !== undefined) {
    // SIGTERM, which tsx passes on to the node it started (a SIGKILL would end tsx alone).
    const timer = setTimeout(() => child.kill('SIGTERM'), killAfterMs);
    child.on('close', () => clearTimeout(timer));
  }
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  child.stdin.end(input);
  return new Promise((done, fail) => {
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

/** A running `slm batch` to converse with: send a line, await the answer line. */
export interface BatchSession {
  send(line: unknown): void;
  nextLine(): Promise<string>;
  /** Closes stdin and resolves to the exit code. */
  end(): Promise<number | null>;
}

export function startBatch(): BatchSession {
  const child = spawnCli(['batch']);
  const waiting: ((line: string) => void)[] = [];
  const ready: string[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    const w = waiting.shift();
    if (w) w(line);
    else ready.push(line);
  });
  const exited = new Promise<number | null>((done) => child.on('close', done));
  return {
    send: (line) => child.stdin.write(`${typeof line === 'string' ? line : JSON.stringify(line)}\n`),
    nextLine: () => {
      const line = ready.shift();
      return line !== undefined ? Promise.resolve(line) : new Promise((done) => waiting.push(done));
    },
    end: () => {
      child.stdin.end();
      return exited;
    },
  };
}

const made: string[] = [];

/** A fresh temporary directory; `cleanup` removes every one made. */
export async function tempRoot(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'slm-cli-'));
  made.push(d);
  return d;
}

export async function cleanup(): Promise<void> {
  await Promise.all(made.splice(0).map((d) => rm(d, { recursive: true, force: true })));
}

/** An environment whose PATH holds only this node: no bwrap, so the CLI finds no OS sandbox. */
export async function envWithoutBwrap(): Promise<NodeJS.ProcessEnv> {
  const bin = await tempRoot();
  await symlink(process.execPath, join(bin, 'node'));
  return { ...process.env, PATH: bin };
}
