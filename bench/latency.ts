/**
 * Latency of the read and search tools and of every ws_edit rung over a generated 2,000-file
 * tree in a NodeWorkspace, each beside a baseline timed in the same run: fs.readFile for
 * ws_read, an exact str_replace through the same workspace for ws_edit, and spawned `grep -rn`
 * and `find` for ws_grep and ws_glob (what a harness without its own search would pay).
 * ws_grep's searches are timed a second time on a MemoryWorkspace holding a copy of the same
 * tree; for each backend the median of the ratios is held to issue 16's target.
 * ws_edit on 2,000-line files, with and without the syntax check, is bench/syntax-cost.ts.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { createEngine } from '../src/engine/create.ts';
import type { Engine } from '../src/engine/engine.ts';
import type { ToolResult } from '../src/engine/result.ts';
import { decodeText, encodeText } from '../src/engine/text.ts';
import { MemoryWorkspace } from '../src/workspace/memory/memory-workspace.ts';
import { NodeWorkspace } from '../src/workspace/node/node-workspace.ts';
import { exactStrReplace } from './edits.ts';
import { timeRuns, timingCell, type Timing } from './stats.ts';
import type { BenchRow, BenchSection, BenchSectionDef } from './table.ts';
import { generateTree, pyFile, pySpan, TREE, type PyFileSpec } from './tree.ts';

const EDIT_MEDIAN_MS = 1;
/** Issue 16: ws_grep's median within this many times spawned `grep -rn`'s, on each backend. */
const GREP_MAX_RATIO = 2;
const RUNS = { read: 200, edit: 100, large: 50, search: 15 } as const;

/** One timed edit. Its new text depends on the run, so no run repeats a text the syntax check has judged before. */
export interface EditCase {
  readonly figure: string;
  readonly path: string;
  readonly original: string;
  readonly oldStr: string;
  newStr(run: number): string;
  expected(run: number): string;
  /** False for the rows that show the ladder's own cost, without the post-edit syntax check. */
  readonly syntaxCheck: boolean;
}

const RUNGS = ['exact', 'trailing-whitespace', 'indentation', 'blank-line', 'anchored first+last'] as const;
type Rung = (typeof RUNGS)[number];

/** An edit of function `fn` in `file` whose old_str drifted so that exactly `rung` matches it. */
function editCase(file: PyFileSpec, fn: number, rung: Rung, syntaxCheck = true): EditCase {
  const original = pyFile(file.functions);
  const span = pySpan(fn);
  const next = (run: number): string[] => [span[0]!, '    if value is None or value < 0:', `        return ${run}`];
  const dedent = (lines: readonly string[]): string => lines.map((l) => l.slice(4)).join('\n');
  const oldStrs: Record<Rung, string> = {
    exact: span.join('\n'),
    'trailing-whitespace': span.map((l) => `${l}  `).join('\n'),
    // The ladder re-applies the file's own indentation to new_str, so both come dedented.
    indentation: dedent(span),
    'blank-line': [span[0], '', span[1], span[2]].join('\n'),
    'anchored first+last': [span[0], '    if value == None:', span[2]].join('\n'),
  };
  return {
    figure: `ws_edit, ${rung} rung, syntax check ${syntaxCheck ? 'on' : 'off'} (${file.size})`,
    path: file.path,
    original,
    oldStr: oldStrs[rung],
    newStr: (run) => (rung === 'indentation' ? dedent(next(run)) : next(run).join('\n')),
    expected: (run) => original.replace(span.join('\n'), next(run).join('\n')),
    syntaxCheck,
  };
}

const notAvailable = (figure: string, tool: string): BenchRow => ({
  figure,
  ours: `${tool} not available`,
  baseline: '',
});

/** Why a timed call did not do what the row claims to measure, or null when it did. */
export function failure(r: ToolResult | undefined): string | null {
  if (!r) return 'not run';
  return r.ok ? null : `failed: ${r.text.split('\n')[0]!.slice(0, 60)}`;
}

/** The exact str_replace baseline, on the same file through the same workspace. */
async function editBaseline(
  ws: NodeWorkspace,
  c: EditCase,
  runs: number,
  restore: () => Promise<void>,
): Promise<string> {
  let baselineApplied = false;
  let run = 0;
  const baseline = await timeRuns(
    async () => {
      const out = exactStrReplace(decodeText(await ws.readFile(c.path)), c.oldStr, c.newStr(run++));
      baselineApplied = out !== null;
      if (out !== null) await ws.writeFile(c.path, encodeText(out));
    },
    { runs, before: restore },
  );
  return `${timingCell(baseline)}${baselineApplied ? '' : ' (refuses)'}`;
}

/** Times ws_edit on `c` beside the exact str_replace baseline; every run, warm-up included, writes a new text. */
export async function editRow(
  engine: Engine,
  ws: NodeWorkspace,
  c: EditCase,
  runs: number,
  targetMs: number | null = EDIT_MEDIAN_MS,
): Promise<BenchRow> {
  const restore = async (): Promise<void> => {
    await ws.writeFile(c.path, encodeText(c.original));
  };
  const baseline = await editBaseline(ws, c, runs, restore);
  const target = (met: boolean | null) =>
    targetMs === null ? {} : { target: { text: `median < ${targetMs} ms`, met } };
  if (!engine.tools.has('ws_edit') || !engine.tools.has('ws_read')) {
    return { figure: c.figure, ours: 'ws_edit not available', baseline, ...target(null) };
  }
  let last: ToolResult | undefined;
  let run = 0;
  const ours = await timeRuns(
    async () => {
      last = await engine.call('ws_edit', {
        path: c.path,
        old_str: c.oldStr,
        new_str: c.newStr(run++),
        ...(c.syntaxCheck ? {} : { disable_syntax_check: true }),
      });
    },
    // Untimed: restore the file and read it, as the model would before editing.
    { runs, before: async () => (await restore(), void (await engine.call('ws_read', { path: c.path }))) },
  );
  const after = decodeText(await ws.readFile(c.path));
  await restore();
  const why =
    failure(last) ?? (after === c.expected(run - 1) ? null : 'applied, but the file is not the expected text');
  return {
    figure: c.figure,
    ours: why ?? timingCell(ours),
    baseline,
    ...target(why ? false : targetMs === null || ours.median < targetMs),
  };
}

async function timedCall(
  engine: Engine,
  tool: string,
  args: object,
  runs: number,
): Promise<{ timing: Timing; why: string | null }> {
  let last: ToolResult | undefined;
  const timing = await timeRuns(async () => (last = await engine.call(tool, args)), { runs });
  return { timing, why: failure(last) };
}

/** Times a spawned command; null when it cannot run here. */
async function timedSpawn(
  cmd: string,
  args: readonly string[],
  cwd: string,
  runs: number,
): Promise<{ timing: Timing; lines: number } | null> {
  let out = '';
  try {
    const timing = await timeRuns(async () => (out = execFileSync(cmd, args, { cwd, encoding: 'utf8' })), {
      runs,
      warmup: 2,
    });
    return { timing, lines: out.split('\n').filter(Boolean).length };
  } catch {
    return null;
  }
}

/** A search tool's row beside the command, and the ratio of their medians (null when either did not run). */
interface Searched {
  readonly row: BenchRow;
  readonly ratio: number | null;
}

/** A search tool beside the command. */
async function searchRow(
  engine: Engine,
  dir: string,
  tool: string,
  args: object,
  base: readonly [string, ...string[]],
  on = '',
): Promise<Searched> {
  const [cmd, ...cmdArgs] = base;
  const spawned = await timedSpawn(cmd, cmdArgs, dir, RUNS.search);
  const baseline = spawned ? `${timingCell(spawned.timing)} (${cmd}, ${spawned.lines} hits)` : `${cmd} not available`;
  const figure = `${tool} ${JSON.stringify(args)}${on}`;
  if (!engine.tools.has(tool)) return { row: { ...notAvailable(figure, tool), baseline }, ratio: null };
  const ours = await timedCall(engine, tool, args, RUNS.search);
  if (ours.why) return { row: { figure, ours: ours.why, baseline }, ratio: null };
  if (!spawned) return { row: { figure, ours: timingCell(ours.timing), baseline }, ratio: null };
  const ratio = ours.timing.median / spawned.timing.median;
  return { row: { figure, ours: `${timingCell(ours.timing)} (${ratio.toFixed(1)}×)`, baseline }, ratio };
}

/** Issue 16's figure: the median, over the searches, of ws_grep's median ÷ grep's; every search must have run. */
function grepSummary(searched: readonly Searched[], on: string): BenchRow {
  const figure = `ws_grep ÷ grep -rn, median over ${searched.length} searches${on}`;
  const target = (met: boolean) => ({ text: `≤ ${GREP_MAX_RATIO}×`, met });
  const ratios = searched.map((s) => s.ratio);
  if (ratios.some((r) => r === null))
    return { figure, ours: 'not every search ran (see the rows above)', baseline: '', target: target(false) };
  const sorted = (ratios as number[]).slice().sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return {
    figure,
    ours: `${median.toFixed(2)}× (each: ${(ratios as number[]).map((r) => `${r.toFixed(1)}×`).join(', ')})`,
    baseline: '',
    target: target(median <= GREP_MAX_RATIO),
  };
}

/** A MemoryWorkspace holding a copy of every file under `dir`, written through the workspace. */
async function memoryCopy(dir: string): Promise<MemoryWorkspace> {
  const ws = new MemoryWorkspace();
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const path = join(e.parentPath, e.name);
    await ws.writeFile(relative(dir, path).split('\\').join('/'), await readFile(path));
  }
  return ws;
}

async function measure(dir: string): Promise<BenchRow[]> {
  await generateTree(dir);
  const ws = await NodeWorkspace.open(dir);
  // Timing loops repeat identical calls on purpose; the loop guard would answer them instead.
  const engine = createEngine(ws, { loop_guard: false });
  const rows: BenchRow[] = [];

  const readFigure = `ws_read ${TREE.readPath}`;
  const baseRead = await timeRuns(() => readFile(join(ws.root, TREE.readPath)), { runs: RUNS.read });
  if (engine.tools.has('ws_read')) {
    const ours = await timedCall(engine, 'ws_read', { path: TREE.readPath }, RUNS.read);
    rows.push({
      figure: readFigure,
      ours: ours.why ?? timingCell(ours.timing),
      baseline: `${timingCell(baseRead)} (fs.readFile)`,
    });
  } else rows.push({ ...notAvailable(readFigure, 'ws_read'), baseline: `${timingCell(baseRead)} (fs.readFile)` });

  const { rungFile, largeFile } = TREE;
  // Every rung on a small file and the anchored rung on the large one. The < 1 ms target is the
  // edit's own work (find, adapt, write); the post-edit syntax check's cost is one untargeted row
  // here and its own section below.
  const edits = [
    ...RUNGS.map((rung) => editCase(rungFile, 3, rung, false)),
    editCase(rungFile, 3, 'exact', true),
    editCase(largeFile, 150, 'anchored first+last', false),
  ];
  for (const c of edits)
    rows.push(
      await editRow(
        engine,
        ws,
        c,
        c.path === largeFile.path ? RUNS.large : RUNS.edit,
        c.syntaxCheck ? null : EDIT_MEDIAN_MS,
      ),
    );

  const memoryEngine = createEngine(await memoryCopy(dir), { loop_guard: false });
  for (const [backend, on] of [
    [engine, ''],
    [memoryEngine, ' (MemoryWorkspace)'],
  ] as const) {
    const searched: Searched[] = [];
    for (const args of TREE.grepSearches) {
      const base = ['grep', args.case_insensitive ? '-rniE' : '-rnE', args.pattern, '.'] as const;
      const row = await searchRow(backend, dir, 'ws_grep', args, base, on);
      rows.push(row.row);
      searched.push(row);
    }
    rows.push(grepSummary(searched, on));
  }
  rows.push(
    (
      await searchRow(engine, dir, 'ws_glob', { pattern: TREE.globPattern }, [
        'find',
        '.',
        '-type',
        'f',
        '-name',
        TREE.findName,
      ])
    ).row,
  );
  return rows;
}

/** The latency section; the tree lives in a temporary directory removed afterwards. */
export function latencySection(): BenchSectionDef {
  const title = `latency over a generated ${TREE.files.toLocaleString('en')}-file tree (NodeWorkspace; ws_grep on MemoryWorkspace too)`;
  return {
    title,
    async run(): Promise<BenchSection> {
      const dir = await mkdtemp(join(tmpdir(), 'slm-bench-'));
      try {
        return { title, unit: 'median / p90', rows: await measure(dir) };
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}
