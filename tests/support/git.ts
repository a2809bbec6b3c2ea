/**
 * Test kit for the git tools: an engine over a memory workspace committed with the seed,
 * snapshots of `.git` (to prove the read-only tools never write it), and real repositories made
 * with the `git` CLI in temporary directories, to compare formats with git's own output.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Engine } from '../../src/engine/engine.ts';
import type { ToolDef } from '../../src/engine/tool.ts';
import type { Workspace } from '../../src/engine/workspace.ts';
import { walkTree } from '../../src/engine/walk.ts';
import { gitStatus } from '../../src/engine/tools/git_status.ts';
import { gitDiff } from '../../src/engine/tools/git_diff.ts';
import { wsMv } from '../../src/engine/tools/ws_mv.ts';
import { wsWrite } from '../../src/engine/tools/ws_write.ts';
import { wsDelete } from '../../src/engine/tools/ws_delete.ts';
import { wsRead } from '../../src/engine/tools/ws_read.ts';
import { initRepoWithCommit } from '../../src/workspace/git-seed.ts';
import { seedWorkspace, type Seed } from './file-tools.ts';

/** The tools the git tests drive. */
export const GIT_TEST_TOOLS: readonly ToolDef<any>[] = [wsRead, wsWrite, wsMv, wsDelete, gitStatus, gitDiff];

export function engineOver(ws: Workspace): Engine {
  // The loop guard would answer the repeated status calls the tables make on purpose.
  return new Engine({ workspace: ws, tools: GIT_TEST_TOOLS, settings: { loop_guard: false } });
}

/** A memory workspace holding `seed`, committed as the repository's first commit (when `commit`). */
export async function committedWorkspace(seed: Seed, commit = true) {
  const ws = await seedWorkspace(seed);
  if (commit) await initRepoWithCommit(ws, 'seed');
  return { ws, engine: engineOver(ws) };
}

/** Every entry under `.git` with its bytes (hex), to compare before and after a call. */
export async function snapshotGitDir(ws: Workspace): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (!(await ws.lstat('.git'))) return out;
  for (const e of (await walkTree(ws, '.git', { skip: new Set() })).entries) {
    out.set(e.path, e.type === 'file' ? Buffer.from(await ws.readFile(e.path)).toString('hex') : e.type);
  }
  return out;
}

/** The tool text without its last line (the bracketed summary or legend). */
export function withoutLastLine(text: string): string {
  return text.slice(0, text.lastIndexOf('\n') + 1);
}

const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'test',
  GIT_AUTHOR_EMAIL: 'test@example.invalid',
  GIT_COMMITTER_NAME: 'test',
  GIT_COMMITTER_EMAIL: 'test@example.invalid',
  LC_ALL: 'C',
};

/** Options that pin the git behaviour the formats are compared against. */
const GIT_CONFIG = [
  '-c',
  'core.quotePath=false',
  '-c',
  'color.ui=never',
  '-c',
  'diff.renames=true',
  '-c',
  'core.autocrlf=false',
];

/** Runs the real git in `dir`; throws with its output when it fails. */
export function runGit(dir: string, args: readonly string[]): string {
  const r = spawnSync('git', [...GIT_CONFIG, ...args], { cwd: dir, env: GIT_ENV, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed (${r.status}): ${r.stderr}${r.stdout}`);
  return r.stdout;
}

/** True when a `git` binary is on PATH (the Node comparisons need it). */
export function hasGitCli(): boolean {
  return spawnSync('git', ['--version'], { encoding: 'utf8' }).status === 0;
}

/** Writes `files` (path → text or bytes) under `dir`, creating folders. */
export function writeTree(dir: string, files: Record<string, string | Uint8Array>): void {
  for (const [path, data] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), data);
  }
}

/** Temporary directories made by `tmpRepo`, removed by `removeTmpRepos`. */
const made: string[] = [];

/** A temporary directory with `files`, made a git repository on `main` with one commit of them (unless `commit` is false). */
export function tmpRepo(files: Record<string, string | Uint8Array>, opts: { commit?: boolean } = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'slm-git-'));
  made.push(dir);
  writeTree(dir, files);
  runGit(dir, ['init', '-q', '-b', 'main']);
  if (opts.commit ?? true) {
    runGit(dir, ['add', '-A']);
    runGit(dir, ['commit', '-q', '--allow-empty', '-m', 'seed']);
  }
  return dir;
}

export function removeTmpRepos(): void {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
}
