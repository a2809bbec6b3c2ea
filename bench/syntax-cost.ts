/**
 * What the post-edit syntax check costs on a 2,000-line file, per checked language: ws_edit
 * with the check and without it (each beside the exact str_replace baseline), the check alone,
 * for Python the split between tree-sitter's parse and the indentation rules, and a broken
 * edit that is reverted, whose "before" text the hook has judged already, beside the same
 * call with a hook that remembers no verdict. Then the bounds: the JavaScript check on files
 * of n top-level declarations beside acorn's own parser (whose scopes are quadratic in n), and
 * ws_write of a 12.3 MB file, whose check is skipped by the size limit.
 */
import { Parser } from 'acorn';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine } from '../src/engine/create.ts';
import type { Engine } from '../src/engine/engine.ts';
import type { ToolResult } from '../src/engine/result.ts';
import { checkSyntax, syntaxCheckerFor } from '../src/engine/syntax/check.ts';
import { firstPythonProblem } from '../src/engine/syntax/python-rules.ts';
import { encodeText } from '../src/engine/text.ts';
import { parserFor } from '../src/engine/treesitter/loader.ts';
import { NodeWorkspace } from '../src/workspace/node/node-workspace.ts';
import { editRow, type EditCase } from './latency.ts';
import { LARGE_FILES, type LargeFile } from './large-files.ts';
import { timeRuns, timingCell, type Timing } from './stats.ts';
import type { BenchRow, BenchSection, BenchSectionDef } from './table.ts';

const RUNS = 50;
/** The unit every edit changes (of 200). */
const UNIT = 150;

const lines = (f: LargeFile): string => `${(f.text.split('\n').length - 1).toLocaleString('en')}-line .${f.lang}`;

function editCase(f: LargeFile, syntaxCheck: boolean): EditCase {
  const span = f.span(UNIT).join('\n');
  return {
    figure: `ws_edit, exact rung, ${lines(f)}, syntax check ${syntaxCheck ? 'on' : 'off'}`,
    path: f.path,
    original: f.text,
    oldStr: span,
    newStr: (run: number) => f.next(UNIT, run).join('\n'),
    expected: (run: number) => f.text.replace(span, f.next(UNIT, run).join('\n')),
    syntaxCheck,
  };
}

/** The check alone on the unedited file, or why it gave no verdict. */
async function checkRow(f: LargeFile): Promise<BenchRow> {
  const verdict = await checkSyntax(f.path, f.text);
  const timing = await timeRuns(() => checkSyntax(f.path, f.text), { runs: RUNS });
  const baseline =
    f.lang === 'json'
      ? `${timingCell(await timeRuns(async () => JSON.parse(f.text), { runs: RUNS }))} (JSON.parse)`
      : '';
  const figure = `  the check alone (${syntaxCheckerFor(f.path)}), ${lines(f)}`;
  return {
    figure,
    ours: verdict?.status === 'ok' ? timingCell(timing) : `no ok verdict: ${verdict?.message ?? 'no checker'}`,
    baseline,
  };
}

/** Python's check in its two parts: tree-sitter's parse, and the indentation rules on the tree. */
async function pythonSplit(f: LargeFile): Promise<BenchRow[]> {
  const parser = await parserFor('python');
  const parse = await timeRuns(async () => parser.parse(f.text)?.delete(), { runs: RUNS });
  const tree = parser.parse(f.text);
  if (!tree) throw new Error(`tree-sitter-python gave no tree for ${f.path}`);
  try {
    const problem = firstPythonProblem(tree.rootNode, f.text);
    const rules = await timeRuns(async () => firstPythonProblem(tree.rootNode, f.text), { runs: RUNS });
    return [
      { figure: `    of which tree-sitter-python's parse`, ours: timingCell(parse), baseline: '' },
      {
        figure: `    of which the indentation rules (python-rules.ts)`,
        ours: problem ? `found a problem in a valid file: ${JSON.stringify(problem)}` : timingCell(rules),
        baseline: '',
      },
    ];
  } finally {
    tree.delete();
  }
}

/**
 * A broken edit of the Python file, every run with a new broken text: the hook parses the new
 * text, finds it broken, and needs the verdict on the text before it, which it remembers after
 * the first run (as it does in a session where the model retries a broken edit).
 */
async function revertRow(ws: NodeWorkspace, cached: Engine, uncached: Engine, f: LargeFile): Promise<BenchRow> {
  const span = f.span(UNIT);
  const broken = (run: number) => [span[0]!, span[1]!, `        return (${run}`].join('\n');
  const time = async (engine: Engine): Promise<{ timing: Timing; last: ToolResult | undefined }> => {
    let last: ToolResult | undefined;
    let run = 0;
    const timing = await timeRuns(
      async () =>
        (last = await engine.call('ws_edit', { path: f.path, old_str: span.join('\n'), new_str: broken(run++) })),
      {
        runs: RUNS,
        before: async () => {
          await ws.writeFile(f.path, encodeText(f.text));
          await engine.call('ws_read', { path: f.path });
        },
      },
    );
    return { timing, last };
  };
  const ours = await time(cached);
  const plain = await time(uncached);
  const lasts = [ours.last, plain.last];
  const bad = lasts.findIndex((r) => !r?.text.startsWith('EDIT REVERTED'));
  const why = bad < 0 ? null : `not reverted: ${lasts[bad]?.text.split('\n')[0]?.slice(0, 60) ?? 'not run'}`;
  return {
    figure: `ws_edit breaking the ${lines(f)} (reverted)`,
    ours: why ?? `${timingCell(ours.timing)} (verdicts remembered)`,
    baseline: `${timingCell(plain.timing)} (no verdict cache)`,
  };
}

/** Top-level `let` declarations, one a line. */
const declarations = (n: number): string => Array.from({ length: n }, (_, i) => `let v${i} = ${i};`).join('\n') + '\n';

/** checkSyntax (acorn with Set-backed scopes) beside acorn's own parser, on n declarations. */
async function declarationsRow(n: number): Promise<BenchRow> {
  const text = declarations(n);
  const runs = 3;
  const budget = { budgetMs: 600_000 };
  const verdict = await checkSyntax('decls.mjs', text, budget);
  const ours = await timeRuns(() => checkSyntax('decls.mjs', text, budget), { runs, warmup: 1 });
  const acorn = await timeRuns(async () => Parser.parse(text, { ecmaVersion: 'latest', sourceType: 'module' }), {
    runs,
    warmup: 1,
  });
  return {
    figure: `  the check alone (acorn), ${n.toLocaleString('en')} top-level let declarations (${(text.length / 1e6).toFixed(2)} MB .mjs)`,
    ours: verdict?.status === 'ok' ? timingCell(ours) : `no ok verdict: ${verdict?.message ?? 'no checker'}`,
    baseline: `${timingCell(acorn)} (acorn.parse)`,
  };
}

/** ws_write of a 12.3 MB JavaScript file: the check is skipped by the size limit, beside the same write with the check off. */
async function hugeWriteRow(engine: Engine): Promise<BenchRow> {
  const text = declarations(700_000).padEnd(12_300_000, ' ');
  let last: ToolResult | undefined;
  let run = 0;
  const write = (check: boolean) =>
    timeRuns(
      async () =>
        (last = await engine.call('ws_write', {
          path: `huge-${run++}.js`,
          content: text,
          ...(check ? {} : { disable_syntax_check: true }),
        })),
      { runs: 5, warmup: 1 },
    );
  const on = await write(true);
  const said = last?.text.split('\n').find((l) => l.startsWith('[syntax check skipped'));
  const off = await write(false);
  return {
    figure: `ws_write of a 12.3 MB .js file (700,000 declarations), syntax check on`,
    ours: said
      ? `${timingCell(on)} (skipped: over the size limit)`
      : `not skipped: ${last?.text.split('\n')[0]?.slice(0, 60) ?? 'not run'}`,
    baseline: `${timingCell(off)} (check off)`,
  };
}

async function measure(dir: string): Promise<BenchRow[]> {
  for (const f of LARGE_FILES) {
    await mkdir(join(dir, f.path, '..'), { recursive: true });
    await writeFile(join(dir, f.path), f.text);
  }
  const ws = await NodeWorkspace.open(dir);
  // Timing loops repeat calls on purpose; the loop guard would answer them instead.
  const engine = createEngine(ws, { loop_guard: false });
  const rows: BenchRow[] = [];
  for (const f of LARGE_FILES) {
    // Only ws_edit itself (the check off) is held to the latency section's target.
    rows.push(await editRow(engine, ws, editCase(f, true), RUNS, null));
    rows.push(await editRow(engine, ws, editCase(f, false), RUNS));
    rows.push(await checkRow(f));
    if (f.lang === 'py') rows.push(...(await pythonSplit(f)));
  }
  const py = LARGE_FILES.find((f) => f.lang === 'py')!;
  // The same engine, but its hook asks checkSyntax every time (a checker passed in is never cached).
  const uncached = createEngine(ws, { loop_guard: false }, { syntaxCheck: checkSyntax });
  rows.push(await revertRow(ws, engine, uncached, py));
  for (const n of [10_000, 40_000]) rows.push(await declarationsRow(n));
  rows.push(await hugeWriteRow(engine));
  return rows;
}

/** The section; the files live in a temporary directory removed afterwards. */
export function syntaxCostSection(): BenchSectionDef {
  const title = 'ws_edit on 2,000-line files: the post-edit syntax check, and its bounds (NodeWorkspace)';
  return {
    title,
    async run(): Promise<BenchSection> {
      const dir = await mkdtemp(join(tmpdir(), 'slm-bench-syntax-'));
      try {
        return { title, unit: 'median / p90', rows: await measure(dir) };
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}
