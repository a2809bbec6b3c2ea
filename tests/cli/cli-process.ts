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
 * How long one real CLI process may take in a test. Each starts tsx, which loads the whole CLI
 * before any work (2–3 s on the shared 2-core machine at load 8), then does the command's work:
 * 2–11 s a process there in all (check-shell's first answer waits for tree-sitter's bash
 * grammar; a replay runs its steps again). Vitest's 30 s default is too near that under load,
 * so a test gives each process it starts this long (`cliTimeout`).
 */
export const CLI_PROCESS_MS = 45_000;

/** A process slower than this is named on the test's output with why, so a slow run can be told from a hung one. */
const SLOW_CLI_MS = 15_000;

/** The timeout of a test that starts `processes` CLI processes one after another. */
export function cliTimeout(processes: number): number {
  return processes * CLI_PROCESS_MS;
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
  const started = performance.now();
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
    child.on('close', (code) => {
      const ms = performance.now() - started;
      if (ms > SLOW_CLI_MS)
        console.warn(
          `slm ${args[0] ?? ''} took ${(ms / 1000).toFixed(1)} s: a real CLI process starts tsx and loads the whole CLI before its work, and a loaded machine slows both; a test allows ${CLI_PROCESS_MS / 1000} s a process (cliTimeout).`,
        );
      done({ code, stdout, stderr });
    });
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
