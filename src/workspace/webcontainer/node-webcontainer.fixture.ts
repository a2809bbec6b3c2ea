/**
 * Test fixture: a stand-in for a booted WebContainer, built on Node's fs and child_process in
 * a temporary directory, for tests that cannot reach StackBlitz. It keeps the limits that
 * shape the backend: the fs API has no stat/lstat/readlink, readdir's entries have no
 * `isSymbolicLink`, errors carry their code only in the message (as errors that crossed an
 * iframe do), paths start with `/` for the workdir, and `spawn` gives one output stream of
 * strings, an `exit` promise and `kill()`. It is not WebContainer: online behaviour is checked
 * in the browser (e2e/webcontainer.spec.ts).
 */
import { spawn as nodeSpawn } from 'node:child_process';
import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { posix } from 'node:path';
import type { FileSystemTree } from '@webcontainer/api';
import type { SpawnedProcess, SpawnOptionsLike } from './spawn-capped.ts';
import type { WebContainerDirent, WebContainerFs, WebContainerLike } from './webcontainer-workspace.ts';

/** Rethrows with the message only, as a structured-cloned error arrives. */
async function messageOnly<T>(op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (e) {
    // eslint-disable-next-line preserve-caught-error -- a structured-cloned error arrives without its cause
    throw new Error(e instanceof Error ? e.message : String(e));
  }
}

export class NodeWebContainer implements WebContainerLike {
  readonly fs: WebContainerFs;
  /** Every spawn, for tests that check what was run. */
  readonly spawned: { command: string; args: string[]; options: SpawnOptionsLike }[] = [];

  /** `workdir` is a real directory; the fs resolves `/x` to `workdir/x`. */
  constructor(readonly workdir: string) {
    const at = (p: string): string => posix.join(workdir, p);
    this.fs = {
      readFile: (p) => messageOnly(() => readFile(at(p))),
      writeFile: (p, data) => messageOnly(() => writeFile(at(p), data)),
      readdir: (p) =>
        messageOnly(async () =>
          (await readdir(at(p), { withFileTypes: true })).map((d): WebContainerDirent => ({
            name: d.name,
            isFile: () => d.isFile(),
            isDirectory: () => d.isDirectory(),
          })),
        ),
      mkdir: (p, o) => messageOnly(() => mkdir(at(p), o)),
      rm: (p, o) => messageOnly(() => rm(at(p), o)),
      rename: (a, b) => messageOnly(() => rename(at(a), at(b))),
    };
  }

  async mount(tree: FileSystemTree, under = ''): Promise<void> {
    for (const [name, node] of Object.entries(tree)) {
      const path = posix.join(under, name);
      if ('directory' in node) {
        await mkdir(posix.join(this.workdir, path), { recursive: true });
        await this.mount(node.directory, path);
      } else if ('contents' in node.file) {
        await writeFile(posix.join(this.workdir, path), node.file.contents);
      } else {
        throw new Error(`NodeWebContainer.mount: symlink nodes are not used by the workspace (${path})`);
      }
    }
  }

  /** Output is stdout and stderr interleaved through one pipe; `kill` stops the process group. */
  spawn(command: string, args: string[], options: SpawnOptionsLike = {}): Promise<SpawnedProcess> {
    this.spawned.push({ command, args, options });
    const child = nodeSpawn('/bin/sh', ['-c', 'exec "$@" 2>&1', 'sh', command, ...args], {
      cwd: posix.join(this.workdir, options.cwd ?? ''),
      detached: true,
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { ...process.env, ...options.env },
    });
    let cancelled = false;
    const output = new ReadableStream<string>({
      start(controller) {
        child.stdout.setEncoding('utf8');
        child.stdout.on('data', (s: string) => {
          if (!cancelled) controller.enqueue(s);
        });
        child.stdout.on('end', () => {
          if (!cancelled) controller.close();
        });
      },
      cancel() {
        cancelled = true;
        child.stdout.destroy();
      },
    });
    const exit = new Promise<number>((resolve, reject) => {
      child.on('error', reject);
      child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 + 9 : 1)));
    });
    return Promise.resolve({
      output,
      exit,
      kill: () => {
        try {
          if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
        } catch {
          // ESRCH: already gone.
        }
      },
    });
  }
}
