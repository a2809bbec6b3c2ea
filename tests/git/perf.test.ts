/**
 * How long git_status takes: on the starter template (the playground's case) and on a
 * 2,000-file tree, on the memory and the Node workspace. Every tracked file is hashed on each
 * call (the Workspace has no modification times for git's stat shortcut), so the cost grows with
 * the tree; the figures are printed, and the bounds only catch a regression by an order of magnitude.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryWorkspace } from '../../src/workspace/memory/memory-workspace.ts';
import { NodeWorkspace } from '../../src/workspace/node/node-workspace.ts';
import { STARTER_TEMPLATE, seedTemplate } from '../../src/workspace/templates/index.ts';
import { initRepoWithCommit } from '../../src/workspace/git-seed.ts';
import { encodeText } from '../../src/engine/text.ts';
import type { Workspace } from '../../src/engine/workspace.ts';
import { engineOver, hasGitCli, removeTmpRepos, runGit, tmpRepo } from '../support/git.ts';

/** 2,000 small source files in 100 folders of 20. */
function bigTree(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let d = 0; d < 100; d++) {
    for (let f = 0; f < 20; f++) {
      files[`pkg${d}/mod${f}.js`] = `// module ${d}/${f}\n${Array.from({ length: 20 }, (_, i) => `export const v${i} = ${d * f + i};`).join('\n')}\n`;
    }
  }
  return files;
}

/** Median wall time of `runs` calls, in ms. */
async function medianMs(runs: number, fn: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return Math.round(times[Math.floor(runs / 2)]!);
}

async function timeStatus(ws: Workspace, label: string, runs: number): Promise<number> {
  const engine = engineOver(ws);
  const r = await engine.call('git_status', {});
  expect(r.ok, r.text).toBe(true);
  const ms = await medianMs(runs, () => engine.call('git_status', {}));
  console.log(`git_status ${label}: ${ms} ms (median of ${runs})`);
  return ms;
}

afterAll(removeTmpRepos);

describe('git_status timing', () => {
  it('the starter template (memory)', async () => {
    const ws = new MemoryWorkspace();
    await seedTemplate(ws, STARTER_TEMPLATE);
    await initRepoWithCommit(ws, 'seed');
    await ws.writeFile('src/numbers.js', encodeText('// changed\n'));
    expect(await timeStatus(ws, `starter template, ${Object.keys(STARTER_TEMPLATE.files).length} files, memory`, 9)).toBeLessThan(1000);
  });

  it('a 2,000-file tree (memory)', async () => {
    const ws = new MemoryWorkspace();
    for (const [p, t] of Object.entries(bigTree())) await ws.writeFile(p, encodeText(t));
    const t0 = performance.now();
    await initRepoWithCommit(ws, 'seed');
    console.log(`initRepoWithCommit, 2000 files, memory: ${Math.round(performance.now() - t0)} ms`);
    await ws.writeFile('pkg7/mod3.js', encodeText('// changed\n'));
    expect(await timeStatus(ws, '2000 files, memory', 3)).toBeLessThan(20_000);
  });

  it.skipIf(!hasGitCli())('a 2,000-file tree (Node, committed by git)', async () => {
    const dir = tmpRepo(bigTree());
    const ws = await NodeWorkspace.open(dir);
    await ws.writeFile('pkg7/mod3.js', encodeText('// changed\n'));
    const ms = await timeStatus(ws, '2000 files, node', 3);
    const cli = await medianMs(3, async () => runGit(dir, ['status', '--short']));
    console.log(`git status (CLI) on the same tree: ${cli} ms`);
    expect(ms).toBeLessThan(20_000);
  });
});
