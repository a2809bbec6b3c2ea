/**
 * `vite preview` of a build on a free port, for the browser section. It runs in its own
 * process group, because npx does not pass a signal on to the vite process it starts: stopping
 * the group ends both. It is also stopped when the bench process exits or is interrupted
 * (Ctrl-C does not reach a process group of its own).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { REPO_ROOT } from './build.ts';

const READY_TIMEOUT_MS = 30_000;

export interface Preview {
  /** `http://localhost:PORT`, without a trailing slash. */
  readonly origin: string;
  stop(): Promise<void>;
}

/** A port nothing listens on right now (the OS picks it). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('no free port was given'))));
    });
  });
}

/** Ends the process group the child leads; a second call, or one after it exited, does nothing. */
function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is gone already.
  }
}

/** Serves `dir` and resolves once it answers; rejects (with the server stopped) when it does not within 30 s. */
export async function startPreview(dir: string): Promise<Preview> {
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  const child = spawn('npx', ['vite', 'preview', '--outDir', dir, '--port', String(port), '--strictPort'], {
    cwd: REPO_ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const keep = (b: Buffer) => (out = (out + b.toString('utf8')).slice(-2000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const onExit = () => killGroup(child, 'SIGKILL');
  const onSignal = (signal: NodeJS.Signals) => {
    killGroup(child, 'SIGKILL');
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('exit', onExit);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const stop = async (): Promise<void> => {
    killGroup(child, 'SIGTERM');
    const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 3000);
    await exited;
    clearTimeout(timer);
    process.removeListener('exit', onExit);
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  };

  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      if ((await fetch(`${origin}/`)).ok) return { origin, stop };
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  await stop();
  throw new Error(`vite preview did not answer on ${origin}: ${out.trim().split('\n').at(-1) ?? 'no output'}`);
}
