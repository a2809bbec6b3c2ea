/**
 * One fresh process for the first-use section (bench/first-use.ts): makes an engine over a
 * NodeWorkspace in a temporary directory, calls the tool that needs PART twice, and prints one
 * JSON line: what loaded during each call (lazy-load.ts) and how long each call took.
 * `node --import tsx bench/first-use-child.ts shell|git|javascript|python`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine } from '../src/engine/create.ts';
import { onLoad, type LoadTiming } from '../src/engine/lazy-load.ts';
import { useNodeWasm } from '../src/platform/node-wasm.ts';
import { NodeWorkspace } from '../src/workspace/node/node-workspace.ts';

export interface FirstUseReport {
  readonly calls: readonly { readonly ms: number; readonly ok: boolean; readonly loads: readonly LoadTiming[] }[];
}

/** Per part: the two calls (the first pays the load), after setting up the directory. */
const PARTS: Record<
  string,
  { readonly setup?: (dir: string) => Promise<void>; readonly calls: readonly [string, object][] }
> = {
  shell: {
    calls: [
      ['ws_shell', { command: 'ls' }],
      ['ws_shell', { command: 'ls -a' }],
    ],
  },
  git: {
    setup: async (dir) => {
      await writeFile(join(dir, 'a.txt'), 'one\n');
      const git = (...args: string[]) =>
        execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@invalid', ...args], {
          cwd: dir,
          stdio: 'ignore',
        });
      git('init', '-q');
      git('add', '.');
      git('commit', '-q', '-m', 'seed');
    },
    calls: [
      ['git_status', {}],
      ['git_status', {}],
    ],
  },
  javascript: {
    calls: [
      ['ws_write', { path: 'a.js', content: 'export const a = 1;\n' }],
      ['ws_write', { path: 'b.js', content: 'export const b = 2;\n' }],
    ],
  },
  python: {
    calls: [
      ['ws_write', { path: 'a.py', content: 'a = 1\n' }],
      ['ws_write', { path: 'b.py', content: 'b = 2\n' }],
    ],
  },
};

const part = PARTS[process.argv[2] ?? ''];
if (!part) throw new Error(`first-use-child: name a part (${Object.keys(PARTS).join(', ')})`);
useNodeWasm();
const dir = await mkdtemp(join(tmpdir(), 'slm-first-use-'));
try {
  await part.setup?.(dir);
  const engine = createEngine(await NodeWorkspace.open(dir));
  const calls: FirstUseReport['calls'][number][] = [];
  for (const [tool, args] of part.calls) {
    const loads: LoadTiming[] = [];
    const stop = onLoad((l) => loads.push(l));
    const t0 = performance.now();
    const r = await engine.call(tool, args);
    calls.push({ ms: performance.now() - t0, ok: r.ok, loads });
    stop();
  }
  process.stdout.write(`${JSON.stringify({ calls } satisfies FirstUseReport)}\n`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
