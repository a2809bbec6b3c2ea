/**
 * The production build the bundle and browser sections measure: `vite build` into a temporary
 * directory, once per bench run (the second section to ask reuses the first one's build), and
 * removed when the bench process exits.
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: vite.config.ts and index.html are here. */
export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

const BUILD_TIMEOUT_MS = 180_000;

export interface AppBuild {
  /** The outDir: index.html and assets/. */
  readonly dir: string;
  /** Wall time of `vite build`. */
  readonly ms: number;
}

let pending: Promise<AppBuild> | null = null;

/** The build for this bench run, made on first use. A failed build is not retried. */
export function appBuild(): Promise<AppBuild> {
  pending ??= build();
  return pending;
}

async function build(): Promise<AppBuild> {
  const dir = await mkdtemp(join(tmpdir(), 'slm-bench-build-'));
  // The sections run one after another; the build must outlive the first one that asked.
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const t0 = performance.now();
  await runQuiet('npx', ['vite', 'build', '--outDir', dir, '--emptyOutDir'], BUILD_TIMEOUT_MS);
  return { dir, ms: performance.now() - t0 };
}

/** Runs a command in the repository root; rejects with the tail of its output when it fails or times out. */
export function runQuiet(cmd: string, args: readonly string[], timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const keep = (b: Buffer) => (out = (out + b.toString('utf8')).slice(-4000));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else
        reject(
          new Error(
            `${cmd} ${args.join(' ')} ${signal ? `was killed (${signal}, over ${timeoutMs} ms)` : `exited ${code}`}: ${lastLine(out)}`,
          ),
        );
    });
  });
}

/** The last line of a command's output that says something (for a one-line error row). */
function lastLine(out: string): string {
  const lines = out
    .split('\n')
    .map((l) => l.replace(/\x1b\[[0-9;]*m/g, '').trim())
    .filter(Boolean);
  return lines.find((l) => /error/i.test(l)) ?? lines.at(-1) ?? 'no output';
}
