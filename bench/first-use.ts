/**
 * First-use loads: the engine loads the shell's parser, git and the syntax checkers when a call
 * first needs them (src/engine/lazy-load.ts), so the first ws_shell, git_* or checked write pays
 * for the load once. Each part is timed in fresh Node processes (bench/first-use-child.ts, so
 * nothing is loaded before), beside the same call made a second time in that process. In the
 * browser the same loads also fetch their chunk and wasm from the server.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { REPO_ROOT } from './build.ts';
import type { FirstUseReport } from './first-use-child.ts';
import { ms, summarize, timingCell } from './stats.ts';
import type { BenchRow, BenchSection, BenchSectionDef } from './table.ts';

const RUNS = 3;
const CHILD = fileURLToPath(new URL('./first-use-child.ts', import.meta.url));
const run = promisify(execFile);

/** The part a child measures, and how the row names the call that pays for it. */
const PARTS = [
  ['shell', 'first ws_shell'],
  ['git', 'first git_status'],
  ['javascript', 'first checked write of a .js file'],
  ['python', 'first checked write of a .py file'],
] as const;

async function child(part: string): Promise<FirstUseReport> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', CHILD, part], { cwd: REPO_ROOT, timeout: 60_000 });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as FirstUseReport;
}

async function partRow(part: string, call: string): Promise<BenchRow> {
  const reports: FirstUseReport[] = [];
  for (let i = 0; i < RUNS; i++) reports.push(await child(part));
  const failed = reports.flatMap((r) => r.calls).some((c) => !c.ok);
  const firstLoads = reports.map((r) => r.calls[0]!.loads);
  const what = [...new Set(firstLoads.flat().map((l) => l.what))].join(' + ') || 'nothing';
  const loadMs = summarize(firstLoads.map((loads) => loads.reduce((sum, l) => sum + l.ms, 0)));
  const laterLoads = reports.some((r) => r.calls.slice(1).some((c) => c.loads.length > 0));
  const callMs = (i: number) => ms(summarize(reports.map((r) => r.calls[i]!.ms)).median);
  return {
    figure: `${call}: loads ${what}`,
    ours: failed ? 'a call failed' : laterLoads ? 'loaded again on a later call' : timingCell(loadMs),
    baseline: `whole call ${callMs(0)}; the same call again ${callMs(1)}`,
  };
}

/** The section; registered in bench/main.ts. */
export function firstUseSection(): BenchSectionDef {
  const title = 'first-use loads of the engine (fresh Node process each)';
  return {
    title,
    async run(): Promise<BenchSection> {
      const rows: BenchRow[] = [];
      for (const [part, call] of PARTS) rows.push(await partRow(part, call));
      return {
        title,
        unit: `load ms, median / p90 of ${RUNS} processes; baseline: the call's median, first and second`,
        rows,
      };
    },
  };
}
