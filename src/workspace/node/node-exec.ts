/**
 * Runs an execution plan for the Node workspace: each stage spawned directly from its argv (no
 * shell anywhere), every descriptor routed as the plan says. Stages are joined by real pipes (a
 * FIFO the runner opens at both ends, so `2>&1 |` gives one pipe to both descriptors and a
 * reader that stops early ends its writer with SIGPIPE, as in bash). Every process leads
 * its own process group, so a timeout or an abort kills the command and every child it started
 * (inside the host sandbox, its PID namespace ends them all). Whatever goes to the output shares
 * one socket, so stdout and stderr interleave exactly as written; the output is capped while it
 * runs (head and tail kept, every byte counted). With a memory cap, every stage joins one cgroup
 * before it starts, so the cap bounds the whole command, and a kill by the cap is said.
 */
import { execFileSync, spawn, type ChildProcess, type IOType } from 'node:child_process';
import { closeSync, constants, openSync, unlinkSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { createServer, connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecPlan, ExecResult, ExecSink } from '../../engine/workspace.ts';
import { CappedBytes } from '../capped-bytes.ts';
import type { MemoryCap, MemoryCapGroup } from './memory-cap.ts';
import { closeSandboxFds, sandboxStdio, type SandboxedSpawn } from './host-sandbox.ts';

/** How one argv is started: directly, or through a host sandbox that wraps it. */
export type Launcher = (
  argv: readonly string[],
  opts: { root: string; cwd: string; env: Record<string, string> },
) => SandboxedSpawn;

export interface PlanRequest {
  readonly plan: ExecPlan;
  /** Absolute workspace root. */
  readonly root: string;
  /** Absolute working directory (inside the root). */
  readonly cwd: string;
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
  readonly signal?: AbortSignal;
  /** The environment every stage starts from (the stage's own variables are added). */
  readonly baseEnv: Readonly<Record<string, string>>;
  readonly launch: Launcher;
  /** One memory limit for all the plan's processes together. */
  readonly memoryCap?: MemoryCap | null;
}

/** After a kill, how long to wait for the output to close before the result is given anyway. */
const KILL_GRACE_MS = 500;

/** A connected pair of Unix stream sockets: one end for writers, the other for the reader. */
async function socketPair(dir: string, n: number): Promise<{ reader: Socket; writer: Socket }> {
  const path = join(dir, `${n}`);
  const server = createServer({ pauseOnConnect: true });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  const accepted = new Promise<Socket>((resolve) => server.once('connection', resolve));
  const writer = connect(path);
  await new Promise<void>((resolve, reject) => {
    writer.once('error', reject);
    writer.once('connect', () => resolve());
  });
  writer.pause();
  const reader = await accepted;
  server.close();
  return { reader, writer };
}

/** Kills the process group led by `pid`; the group may already be gone. */
function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // ESRCH: the group exited between the decision and the kill — nothing left to stop.
  }
}

function notRun(exitCode: number | null, why: string): ExecResult {
  return { exitCode, output: '', totalBytes: 0, truncated: false, timedOut: false, backendNote: why };
}

/** A real pipe between two stages: a FIFO opened at both ends in blocking mode, then unlinked. */
function pipeLink(dir: string, n: number): { readFd: number; writeFd: number } {
  const path = join(dir, `p${n}`);
  execFileSync('mkfifo', ['-m', '600', path]);
  // Opening the read end without blocking lets the write end open; the blocking read end then
  // opens at once (a writer exists) and is the one the reading stage gets.
  const probe = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  const writeFd = openSync(path, constants.O_WRONLY);
  const readFd = openSync(path, constants.O_RDONLY);
  closeSync(probe);
  unlinkSync(path);
  return { readFd, writeFd };
}

/** Runs `req.plan` and resolves when its last process has exited and the output closed; never rejects. */
export async function runPlan(req: PlanRequest): Promise<ExecResult> {
  const stages = req.plan.stages;
  if (stages.length === 0 || stages.some((s) => s.argv.length === 0))
    return notRun(127, 'no command was given (a stage has an empty argument vector)');
  if (req.signal?.aborted) return notRun(null, 'cancelled before it started');

  const groups = stages.length === 1 ? 'the whole process group' : `the process groups of all ${stages.length} stages`;
  try {
    if (!(await stat(req.cwd)).isDirectory()) throw new Error('not a directory');
  } catch {
    return notRun(126, `could not start ${stages[0]!.argv[0]} in ${req.cwd}: no such directory`);
  }
  let group: MemoryCapGroup | null = null;
  let capNote: string | null = null;
  try {
    group = req.memoryCap?.open() ?? null;
  } catch (e) {
    // Each process still has its own limits; the result says the total was not capped this time.
    capNote = `no cap on all its processes together this time: the memory cap's cgroup could not be made (${(e as Error).message}); each process kept its own limits`;
  }
  const dir = await mkdtemp(join(tmpdir(), 'slm-out-'));
  let output: { reader: Socket; writer: Socket } | null = null;
  const links: { readFd: number; writeFd: number }[] = [];
  const closeLinks = (): void => {
    for (const fd of links.splice(0).flatMap((l) => [l.readFd, l.writeFd])) closeSync(fd);
  };
  try {
    output = await socketPair(dir, 0);
    const { reader, writer } = output;
    for (let i = 1; i < stages.length; i++) links.push(pipeLink(dir, i));
    return await new Promise<ExecResult>((resolvePromise) => {
      const out = new CappedBytes(req.maxOutputBytes);
      const children: (ChildProcess | null)[] = [];
      const exits: (number | null)[] = stages.map(() => null);
      let running = stages.length;
      let outputOpen = true;
      let settled = false;
      let timedOut = false;
      let aborted = false;
      const notes: string[] = capNote ? [capNote] : [];

      const finish = (): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        req.signal?.removeEventListener('abort', onAbort);
        reader.destroy();
        const killed = timedOut || aborted;
        const capKills = group?.oomKills() ?? 0;
        if (capKills > 0) {
          notes.unshift(
            `killed by the memory cap: the command's processes together went past ${mib(req.memoryCap!.bytes)} (${capKills === 1 ? 'one process was' : `${capKills} processes were`} ended by the kernel)`,
          );
        }
        resolvePromise({
          exitCode: killed ? null : exits[exits.length - 1]!,
          output: out.text(),
          totalBytes: out.totalBytes,
          truncated: out.truncated,
          timedOut,
          ...(timedOut
            ? { backendNote: `killed after ${req.timeoutMs} ms (${groups})` }
            : aborted
              ? { backendNote: `cancelled; ${groups} ${stages.length === 1 ? 'was' : 'were'} killed` }
              : notes.length
                ? { backendNote: notes.join('; ') }
                : {}),
        });
      };
      const maybeFinish = (): void => {
        if (running === 0 && !outputOpen) finish();
      };
      const stopAll = (): void => {
        for (const c of children) killGroup(c?.pid);
        setTimeout(finish, KILL_GRACE_MS);
      };
      const timer = setTimeout(() => {
        timedOut = true;
        stopAll();
      }, req.timeoutMs);
      const onAbort = (): void => {
        aborted = true;
        stopAll();
      };
      req.signal?.addEventListener('abort', onAbort, { once: true });

      reader.on('data', (c: Buffer) => out.push(c));
      reader.on('error', () => undefined);
      reader.on('close', () => {
        outputOpen = false;
        maybeFinish();
      });
      reader.resume();

      const last = stages.length - 1;
      const sinkFor = (i: number, sink: ExecSink): IOType | Socket | number =>
        sink === 'null' ? 'ignore' : sink === 'output' || i === last ? writer : links[i]!.writeFd;

      for (const [i, stage] of stages.entries()) {
        const stdin =
          stage.stdin === 'pipe'
            ? i === 0
              ? 'ignore'
              : links[i - 1]!.readFd
            : stage.stdin === 'empty'
              ? 'ignore'
              : 'pipe';
        const launched = req.launch(stage.argv, {
          root: req.root,
          cwd: req.cwd,
          env: { ...req.baseEnv, ...stage.env },
        });
        if (launched.note && !notes.includes(launched.note)) notes.push(launched.note);
        const started = group ? group.enter(launched.file, launched.args) : launched;
        let child: ChildProcess;
        try {
          child = spawn(started.file, started.args, {
            cwd: req.cwd,
            detached: true,
            env: launched.env,
            stdio: sandboxStdio(stdin, sinkFor(i, stage.stdout), sinkFor(i, stage.stderr), launched),
          });
        } catch (e) {
          exits[i] = 126;
          notes.push(`could not start ${stage.argv[0]}: ${(e as Error).message}`);
          running--;
          children.push(null);
          continue;
        } finally {
          closeSandboxFds(launched);
        }
        children.push(child);
        const index = i;
        const argv0 = stage.argv[0];
        child.on('error', (e: NodeJS.ErrnoException) => {
          // The spawn itself failed (no such program): said on the output, as bash says it.
          const missing = e.code === 'ENOENT';
          out.push(new TextEncoder().encode(`${argv0}: ${missing ? 'command not found' : e.message}\n`));
          exits[index] = missing ? 127 : 126;
        });
        child.on('exit', (code, signal) => {
          if (exits[index] === null) exits[index] = code ?? (signal ? 128 + signalNumber(signal) : null);
        });
        child.on('close', () => {
          running--;
          maybeFinish();
        });
        if (stage.stdin instanceof Uint8Array && child.stdin) {
          child.stdin.on('error', () => undefined);
          child.stdin.end(stage.stdin);
        }
      }
      // The children hold their own copies; the runner keeps only the output's reading end.
      closeLinks();
      writer.destroy();
      maybeFinish();
    });
  } finally {
    closeLinks();
    output?.reader.destroy();
    output?.writer.destroy();
    await rm(dir, { recursive: true, force: true });
    group?.close();
  }
}

function mib(bytes: number): string {
  return bytes >= 1024 ** 3 ? `${bytes / 1024 ** 3} GiB` : `${Math.round(bytes / 1024 ** 2)} MiB`;
}

const SIGNALS: Readonly<Record<string, number>> = {
  SIGHUP: 1,
  SIGINT: 2,
  SIGQUIT: 3,
  SIGABRT: 6,
  SIGKILL: 9,
  SIGSEGV: 11,
  SIGPIPE: 13,
  SIGALRM: 14,
  SIGTERM: 15,
};

/** The number bash adds to 128 for a process killed by `signal`. */
function signalNumber(signal: string): number {
  return SIGNALS[signal] ?? 0;
}
