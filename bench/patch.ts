/**
 * The patch corpus (tests/support/patch-corpus.ts) through ws_patch, beside jsdiff's
 * `applyPatch` with fuzzFactor 0 and 2 in the same process. jsdiff reads unified diffs only:
 * a SEARCH/REPLACE rendering is "n/a" for it, and a diff it cannot parse counts as refused.
 * A multi-file diff goes through jsdiff file by file, each written as it applies — as its
 * `applyPatches` does — so a later miss leaves the earlier files written (a partial write).
 * Desired / wrong-apply / partial-write are judged alike for both (`judgePatch`); jsdiff names
 * no rung, so its inexact applies are not desired.
 */
import { applyPatch, parsePatch, type StructuredPatch } from 'diff';
import {
  buildPatchCorpus,
  caseFiles,
  judgePatch,
  runPatchCase,
  type PatchCase,
  type PatchOutcome,
} from '../tests/support/patch-corpus.ts';
import { headerCandidates, headerName, parsePatchText } from '../src/engine/patch/index.ts';
import { pct } from './stats.ts';
import type { BenchRow, BenchSection, BenchSectionDef } from './table.ts';

const DESIRED_MIN = 0.98;
const FUZZ = [0, 2] as const;

interface Tally {
  n: number;
  desired: number;
  wrong: number;
  partial: number;
}
const tally = (): Tally => ({ n: 0, desired: 0, wrong: 0, partial: 0 });

function add(t: Tally, o: PatchOutcome): void {
  t.n++;
  if (o === 'desired') t.desired++;
  if (o === 'wrong-apply') t.wrong++;
  if (o === 'partial-write') t.partial++;
}

const cell = (t: Tally): string =>
  t.n === 0 ? 'n/a' : `${pct(t.desired, t.n)} / ${pct(t.wrong, t.n)}${t.partial ? ` (+${t.partial} partial)` : ''}`;

/** The case's file a jsdiff index patches: by its header names, or the only file when it names none. */
function fileFor(
  c: PatchCase,
  index: StructuredPatch,
  files: Readonly<Record<string, string | null>>,
): string | undefined {
  const old = headerName(index.oldFileName);
  const neu = headerName(index.newFileName);
  if (old === null && neu === null) return c.args.path ?? c.file;
  return headerCandidates({ old, new: neu }).find((n) => n in files);
}

/** jsdiff on one case; null when the case is not a unified diff (as ws_patch reads it). */
function runJsdiff(c: PatchCase, fuzzFactor: number): PatchOutcome | null {
  const form = parsePatchText(c.args.patch);
  if (!form.ok || form.patch.form !== 'unified') return null;
  const files: Record<string, string | null> = { ...caseFiles(c) };
  let indexes: StructuredPatch[];
  try {
    indexes = parsePatch(c.args.patch);
  } catch {
    // jsdiff throws on a malformed hunk: it applies nothing.
    return judgePatch(c, files, false, false);
  }
  if (!indexes.some((p) => p.hunks.length > 0)) return judgePatch(c, files, false, false);
  let applied = true;
  for (const index of indexes) {
    const path = fileFor(c, index, files);
    const source = path === undefined ? undefined : files[path];
    let out: string | false = false;
    try {
      out = source === undefined || source === null ? false : applyPatch(source, index, { fuzzFactor });
    } catch {
      out = false;
    }
    if (out === false || path === undefined) {
      applied = false;
      break;
    }
    files[path] = out;
  }
  return judgePatch(c, files, applied, false);
}

/** The patch corpus section. */
export function patchCorpusSection(): BenchSectionDef {
  const title = 'patch corpus through ws_patch vs jsdiff applyPatch (fuzz 0 · fuzz 2)';
  return {
    title,
    async run(): Promise<BenchSection> {
      const unit = 'desired % / wrong-apply %';
      const cases = buildPatchCorpus();
      if (cases.length === 0)
        return { title, unit, rows: [{ figure: 'patch corpus', ours: 'corpus not found', baseline: '' }] };
      const byKind = new Map<string, { ours: Tally; fuzz: Tally[] }>();
      const total = { ours: tally(), fuzz: FUZZ.map(tally) };
      const details: string[] = [];
      for (const c of cases) {
        const row = byKind.get(c.rendering) ?? { ours: tally(), fuzz: FUZZ.map(tally) };
        byKind.set(c.rendering, row);
        const { outcome, result } = await runPatchCase(c);
        add(row.ours, outcome);
        add(total.ours, outcome);
        if (outcome !== 'desired')
          details.push(
            `${c.id} (expect ${c.expect}) ${outcome} — ${result.text.split('\n').slice(0, 2).join(' | ').slice(0, 160)}`,
          );
        FUZZ.forEach((f, i) => {
          const o = runJsdiff(c, f);
          if (o === null) return;
          add(row.fuzz[i]!, o);
          add(total.fuzz[i]!, o);
        });
      }
      const baseline = (ts: readonly Tally[]): string => ts.map(cell).join(' · ');
      const rows: BenchRow[] = [...byKind].map(([kind, r]) => ({
        figure: `${kind} (${r.ours.n})`,
        ours: cell(r.ours),
        baseline: baseline(r.fuzz),
      }));
      const met =
        total.ours.desired / total.ours.n >= DESIRED_MIN && total.ours.wrong === 0 && total.ours.partial === 0;
      rows.push({
        figure: `all ${total.ours.n} cases`,
        ours: cell(total.ours),
        baseline: baseline(total.fuzz),
        target: { text: '≥ 98% / 0 wrong, 0 partial', met },
      });
      return { title, unit, rows, details };
    },
  };
}
