/**
 * The shell policy on the longest commands it reads (MAX_COMMAND_CHARS): pipelines of simple
 * stages, stages whose redirection nests the pipeline before them, test-runner stages with their
 * option tables, one command of thousands of words or options, and a chain it refuses. Each is
 * decided beside tree-sitter-bash's parse of the same text alone, the floor every decision pays,
 * and again at a quarter of its length: the cost per part must not grow with the length. The
 * first pipeline is also decided as the first long command of fresh Node processes
 * (shell-long-child.ts), where neither the parser's wasm nor the policy's code is warm yet.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Parser } from 'web-tree-sitter';
import { decideShell, MAX_COMMAND_CHARS, type ShellDecision } from '../src/engine/shell/index.ts';
import { parserFor } from '../src/engine/treesitter/loader.ts';
import { REPO_ROOT } from './build.ts';
import type { FirstDecision } from './shell-long-child.ts';
import { ms, summarize, timingCell, type Timing } from './stats.ts';
import type { BenchRow, BenchSection, BenchSectionDef } from './table.ts';

const RUNS = 15;
const WARMUP = 3;
const PROCESSES = 3;
/**
 * Linear: a part (stage, word, option) of the full command costs at most this many times one of
 * the quarter-length command (quadratic work would be ×4; a shared machine moves it by ±0.5).
 */
const MAX_GROWTH = 2;
const CHILD = fileURLToPath(new URL('./shell-long-child.ts', import.meta.url));
const run = promisify(execFile);

/** A command made of `head` and as many `part`s as fit under the cap, and the decision it must get. */
export interface LongShape {
  readonly figure: string;
  /** What one repeated part is, for the figure: stage, word … */
  readonly unit: string;
  readonly head: string;
  readonly part: string;
  readonly expect: (d: ShellDecision, parts: number) => boolean;
}

/** Allowed, with a plan of `stages(parts)` stages. */
const allowed = (stages: (parts: number) => number) => (d: ShellDecision, parts: number) =>
  d.decision === 'allow' && d.plan?.stages.length === stages(parts);
const pipeline = allowed((parts) => parts + 1);
const oneCommand = allowed(() => 1);

export const LONG_SHAPES: readonly LongShape[] = [
  {
    figure: 'pipeline cat a.txt | head -n 1 | …',
    unit: 'stage',
    head: 'cat a.txt',
    part: ' | head -n 1',
    expect: pipeline,
  },
  { figure: 'pipeline cat a | cat | …', unit: 'stage', head: 'cat a', part: ' | cat', expect: pipeline },
  {
    figure: 'pipeline cat a | cat 2>&1 | … (each nests the ones before)',
    unit: 'stage',
    head: 'cat a',
    part: ' | cat 2>&1',
    expect: pipeline,
  },
  { figure: 'pipeline cat a | npm test | …', unit: 'stage', head: 'cat a', part: ' | npm test', expect: pipeline },
  { figure: 'npm test -- --run --run …', unit: 'option', head: 'npm test --', part: ' --run', expect: oneCommand },
  { figure: 'cat a a a …', unit: 'word', head: 'cat', part: ' a', expect: oneCommand },
  {
    figure: 'cat a && cat && … (refused)',
    unit: 'command',
    head: 'cat a',
    part: ' && cat',
    expect: (d) => d.rule === 'chaining',
  },
];

/** The most parts that fit under the cap. */
export function partsOf(shape: LongShape): number {
  return Math.floor((MAX_COMMAND_CHARS - shape.head.length) / shape.part.length);
}

export function commandOf(shape: LongShape, parts = partsOf(shape)): string {
  return shape.head + shape.part.repeat(parts);
}

/** `fns` timed in turn, run after run, so a busy moment of a shared machine falls on each of them alike. */
function interleaved(fns: readonly (() => unknown)[]): Timing[] {
  const samples = fns.map((): number[] => []);
  for (let i = 0; i < WARMUP + RUNS; i++) {
    fns.forEach((fn, j) => {
      const t0 = performance.now();
      fn();
      if (i >= WARMUP) samples[j]!.push(performance.now() - t0);
    });
  }
  return samples.map(summarize);
}

function shapeRow(parser: Parser, shape: LongShape): BenchRow {
  const parts = partsOf(shape);
  const quarterParts = Math.floor(parts / 4);
  const cmd = commandOf(shape, parts);
  const figure = `${shape.figure}: ${parts.toLocaleString('en')} ${shape.unit}s (${cmd.length.toLocaleString('en')} chars)`;
  const decision = decideShell(parser, cmd);
  if (!shape.expect(decision, parts))
    return { figure, ours: `unexpected decision: ${decision.decision} (${decision.rule})`, baseline: '' };
  const quarterCmd = commandOf(shape, quarterParts);
  const [full, quarter, parse] = interleaved([
    () => decideShell(parser, cmd),
    () => decideShell(parser, quarterCmd),
    () => parser.parse(cmd)?.delete(),
  ]) as [Timing, Timing, Timing];
  const growth = full.median / parts / (quarter.median / quarterParts);
  return {
    figure,
    ours: `${timingCell(full)} (¼ length: ${ms(quarter.median)}; per ${shape.unit} ×${growth.toFixed(2)})`,
    baseline: `${timingCell(parse)} (parse alone)`,
    target: { text: `per ${shape.unit} ≤ ×${MAX_GROWTH} of ¼ length`, met: growth <= MAX_GROWTH },
  };
}

async function child(what: 'decide' | 'parse'): Promise<FirstDecision> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', CHILD, what], {
    cwd: REPO_ROOT,
    timeout: 120_000,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as FirstDecision;
}

/** The first long decision of a process, beside the first long parse of another. */
async function coldRow(): Promise<BenchRow> {
  const decide: FirstDecision[] = [];
  const parse: FirstDecision[] = [];
  for (let i = 0; i < PROCESSES; i++) {
    decide.push(await child('decide'));
    parse.push(await child('parse'));
  }
  const bad = decide.find((d) => !d.ok);
  return {
    figure: `  the same, as the first long command of a fresh process`,
    ours: bad ? 'unexpected decision' : timingCell(summarize(decide.map((d) => d.ms))),
    baseline: `${timingCell(summarize(parse.map((d) => d.ms)))} (first parse alone)`,
  };
}

/** The section; registered in bench/main.ts. */
export function shellLongSection(): BenchSectionDef {
  const title = `shell policy on the longest commands (${MAX_COMMAND_CHARS.toLocaleString('en')}-character cap)`;
  return {
    title,
    async run(): Promise<BenchSection> {
      const parser = await parserFor('bash');
      try {
        const rows: BenchRow[] = [];
        for (const shape of LONG_SHAPES) rows.push(shapeRow(parser, shape));
        rows.splice(1, 0, await coldRow());
        return {
          title,
          unit: `decideShell ms, median / p90 of ${RUNS} runs (fresh processes: of ${PROCESSES}); baseline: tree-sitter-bash's parse of the same text`,
          rows,
        };
      } finally {
        parser.delete();
      }
    },
  };
}
