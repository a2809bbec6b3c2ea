/**
 * ws_patch and many hunks. Each hunk is anchored against the whole file, so the work of a
 * call is hunks × file size; MAX_PATCH_HUNKS bounds it. Rows: a 10,000-hunk patch (refused
 * at once), patches at the cap on a short and on a long file, and applyHunks without the cap
 * at 1,000 and 2,000 hunks (the growth the cap cuts off), each beside jsdiff's applyPatch.
 */
import { applyPatch } from 'diff';
import { createEngine } from '../src/engine/create.ts';
import { applyHunks, parsePatchText } from '../src/engine/patch/index.ts';
import { encodeText } from '../src/engine/text.ts';
import { MAX_PATCH_HUNKS } from '../src/engine/tools/ws_patch.ts';
import { MemoryWorkspace } from '../src/workspace/memory/memory-workspace.ts';
import { timeRuns, timingCell } from './stats.ts';
import type { BenchRow, BenchSectionDef } from './table.ts';

const n = (x: number): string => x.toLocaleString('en');

/** A file of `lines` lines and a diff of `hunks` one-line hunks spread evenly over it. */
function patchCase(lines: number, hunks: number): { text: string; patch: string } {
  const text = Array.from({ length: lines }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
  const step = Math.floor(lines / hunks);
  const body = Array.from({ length: hunks }, (_, h) => {
    const l = h * step + 2;
    return `@@ -${l} +${l} @@\n-line ${l}\n+LINE ${l}\n`;
  });
  return { text, patch: `--- a/f.txt\n+++ b/f.txt\n${body.join('')}` };
}

async function wsPatchRow(lines: number, hunks: number, runs: number, target?: number): Promise<BenchRow> {
  const { text, patch } = patchCase(lines, hunks);
  const ws = new MemoryWorkspace();
  const engine = createEngine(ws, { loop_guard: false, read_before_edit: false, syntax_check: false });
  let last = '';
  const ours = await timeRuns(async () => (last = (await engine.call('ws_patch', { patch })).text.split('\n')[0]!), {
    runs,
    warmup: 1,
    before: () => ws.writeFile('f.txt', encodeText(text)),
  });
  const jsdiff = await timeRuns(async () => applyPatch(text, patch), { runs, warmup: 1 });
  const outcome = last.startsWith('Patch refused — the patch has')
    ? 'refused: over the cap'
    : last.startsWith('Patch refused')
      ? `refused: ${last.slice(0, 50)}`
      : 'applied';
  return {
    figure: `ws_patch, ${n(hunks)} hunks on a ${n(lines)}-line file`,
    ours: `${timingCell(ours)} (${outcome})`,
    baseline: `${timingCell(jsdiff)} (jsdiff applyPatch)`,
    ...(target ? { target: { text: `< ${n(target)} ms`, met: ours.p90 < target } } : {}),
  };
}

/** applyHunks itself, without the cap: one run, to show how the work grows. */
function uncappedRow(hunks: number): BenchRow {
  const { text, patch } = patchCase(hunks * 4, hunks);
  const parsed = parsePatchText(patch);
  if (!parsed.ok) throw new Error(parsed.text);
  const t0 = performance.now();
  const r = applyHunks(text, parsed.patch.files[0]!.hunks, { tolerance: true, disabled: [] });
  const ms = performance.now() - t0;
  return {
    figure: `  applyHunks without the cap, ${n(hunks)} hunks on a ${n(hunks * 4)}-line file (1 run)`,
    ours: `${Math.round(ms)} ms${r.ok ? '' : ' (did not apply)'}`,
    baseline: '',
  };
}

export function patchHunksSection(): BenchSectionDef {
  const title = `ws_patch with many hunks (MemoryWorkspace; at most ${n(MAX_PATCH_HUNKS)} hunks a call)`;
  return {
    title,
    async run() {
      const rows: BenchRow[] = [
        await wsPatchRow(40_000, 10_000, 5, 1000),
        await wsPatchRow(4 * MAX_PATCH_HUNKS, MAX_PATCH_HUNKS, 5),
        await wsPatchRow(40_000, MAX_PATCH_HUNKS, 3),
        uncappedRow(1_000),
        uncappedRow(2_000),
      ];
      return { title, unit: 'median / p90', rows };
    },
  };
}
