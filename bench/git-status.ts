/**
 * How long git_status takes: on the starter template (the playground's case) and on a
 * 2,000-file tree, on the memory and the Node workspace, beside `git status --short` on the same
 * tree in the same run. Every tracked file is hashed on each call (the Workspace has no
 * modification times for git's stat shortcut), so the cost grows with the tree.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine } from '../src/engine/create.ts';
import type { Workspace } from '../src/engine/workspace.ts';
import { encodeText } from '../src/engine/text.ts';
import { initRepoWithCommit } from '../src/workspace/git-seed.ts';
import { MemoryWorkspace } from '../src/workspace/memory/memory-workspace.ts';
import { NodeWorkspace } from '../src/workspace/node/node-workspace.ts';
import { STARTER_TEMPLATE, seedTemplate } from '../src/workspace/templates/index.ts';
import { ms, timeRuns, timingCell, type Timing } from './stats.ts';
import type { BenchRow, BenchSectionDef } from './table.ts';

/** 2,000 small source files in 100 folders of 20. */
function bigTree(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let d = 0; d < 100; d++) {
    for (let f = 0; f < 20; f++) {
      files[`pkg${d}/mod${f}.js`] =
        `// module ${d}/${f}\n${Array.from({ length: 20 }, (_, i) => `export const v${i} = ${d * f + i};`).join('\n')}\n`;
    }
  }
  return files;
}

/** git_status after a fresh change to `changed` before every call, so no answer can be reused. */
async function timeStatus(ws: Workspace, changed: string, runs: number): Promise<Timing> {
  // The loop guard would answer the repeated calls itself.
  const engine = createEngine(ws, { loop_guard: false });
  const first = await engine.call('git_status', {});
  if (!first.ok) throw new Error(`git_status failed: ${first.text}`);
  let n = 0;
  return timeRuns(() => engine.call('git_status', {}), {
    runs,
    warmup: 1,
    before: () => ws.writeFile(changed, encodeText(`// changed ${++n}\n`)),
  });
}

function git(dir: string, args: readonly string[]): string {
  return execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.org', ...args], {
    cwd: dir,
    encoding: 'utf8',
  });
}

export function gitStatusSection(): BenchSectionDef {
  return {
    title: 'git_status',
    async run() {
      const rows: BenchRow[] = [];
      const starter = new MemoryWorkspace();
      await seedTemplate(starter, STARTER_TEMPLATE);
      await initRepoWithCommit(starter, 'seed');
      const s = await timeStatus(starter, 'src/numbers.js', 9);
      rows.push({
        figure: `git_status, starter template (${Object.keys(STARTER_TEMPLATE.files).length} files, memory)`,
        ours: timingCell(s),
        baseline: '',
        target: { text: '≤ 1 s median', met: s.median <= 1000 },
      });

      const tree = bigTree();
      const memory = new MemoryWorkspace();
      for (const [p, t] of Object.entries(tree)) await memory.writeFile(p, encodeText(t));
      await initRepoWithCommit(memory, 'seed');
      const m = await timeStatus(memory, 'pkg7/mod3.js', 3);

      const dir = mkdtempSync(join(tmpdir(), 'slm-bench-git-'));
      try {
        for (const [p, t] of Object.entries(tree)) {
          mkdirSync(join(dir, p, '..'), { recursive: true });
          writeFileSync(join(dir, p), t);
        }
        git(dir, ['init', '-q']);
        git(dir, ['add', '.']);
        git(dir, ['commit', '-qm', 'seed']);
        const n = await timeStatus(await NodeWorkspace.open(dir), 'pkg7/mod3.js', 3);
        const cli = await timeRuns(async () => git(dir, ['status', '--short']), { runs: 5, warmup: 1 });
        rows.push({
          figure: 'git_status, 2,000 files (memory) vs git status --short',
          ours: timingCell(m),
          baseline: timingCell(cli),
          target: { text: '≤ 20 s median', met: m.median <= 20_000 },
        });
        rows.push({
          figure: 'git_status, 2,000 files (Node) vs git status --short',
          ours: timingCell(n),
          baseline: timingCell(cli),
          target: { text: '≤ 20 s median', met: n.median <= 20_000 },
        });
        rows.push({
          figure: 'git_status ÷ git status, 2,000 files (Node, medians)',
          ours: `${(n.median / cli.median).toFixed(0)}×`,
          baseline: ms(cli.median),
          target: undefined,
        });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      return { title: 'git_status', unit: 'median / p90', rows };
    },
  };
}
