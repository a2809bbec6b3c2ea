/**
 * ws_patch: apply a unified diff, SEARCH/REPLACE blocks or a bare -/+ block. The text is
 * parsed into hunks (`../patch/`), every file it names is jailed and read, every hunk is
 * anchored with the match ladder and applied in memory, and only when all of them applied is
 * anything written — every file of a multi-file diff, or none. The result reports each hunk:
 * where it anchored and by which rung, or why it failed with the closest span.
 *
 * Every hunk is anchored against the whole file it patches (the ladder searches the file,
 * then the hunk's window), so a call costs hunks × file size: 10,000 hunks on a 40,000-line
 * file took minutes. MAX_PATCH_HUNKS bounds a call; a bigger patch is refused before any
 * file is read, with the way to split it.
 */
import { z } from 'zod';
import { defineTool } from '../tool.ts';
import type { ToolContext } from '../context.ts';
import { fail, firstLine, ok, refusal, type FileChange, type Note, type ToolResult } from '../result.ts';
import { commitText, recordCheckpoint, writeErrorText } from '../file-io.ts';
import { encodeText } from '../text.ts';
import { isWorkspaceError } from '../workspace.ts';
import { driftNotes, toRungIds, type LadderTried } from '../ladder/index.ts';
import {
  applyHunks,
  failedText,
  failureText,
  parsePatchText,
  resolveTargets,
  rungNotes,
  successText,
  type FileApply,
  type FileReport,
  type HunkFailure,
  type Target,
} from '../patch/index.ts';
import { GUTTER_NOTE } from './ws_edit.ts';

const schema = z.object({
  patch: z
    .string()
    .describe(
      'A unified diff (--- a/file, +++ b/file, @@ -12,3 +12,3 @@ hunks with " " context, "-" removed, "+" added lines), ' +
        'or SEARCH/REPLACE blocks (<<<<<<< SEARCH / lines to find / ======= / new lines / >>>>>>> REPLACE), or a bare block of -/+ lines.',
    ),
  path: z
    .string()
    .optional()
    .describe(
      'The file to patch. Required for SEARCH/REPLACE and bare -/+ blocks; for a unified diff it must agree with the --- / +++ headers.',
    ),
});

type PatchArgs = z.output<typeof schema>;

/** The most hunks one ws_patch call applies, over all its files. */
export const MAX_PATCH_HUNKS = 200;

/** The ws_patch tool: patch text in any accepted form, applied whole or not at all. */
export const wsPatch = defineTool({
  name: 'ws_patch',
  summary: 'Apply a unified diff or SEARCH/REPLACE block',
  writes: true,
  schema,
  aliases: { diff: 'patch', hunk: 'patch', file_path: 'path', file: 'path', filename: 'path' },
  run: runPatch,
});

interface Applied {
  readonly target: Target;
  readonly result: FileApply;
}

async function runPatch(args: PatchArgs, ctx: ToolContext): Promise<ToolResult> {
  const parsed = parsePatchText(args.patch);
  if (!parsed.ok) return refusal(parsed.text, parsed.rule);
  const hunks = parsed.patch.files.reduce((n, f) => n + f.hunks.length, 0);
  if (hunks > MAX_PATCH_HUNKS) return refusal(tooManyHunksText(hunks), 'too-many-hunks');
  const resolved = await resolveTargets(ctx, parsed.patch, args.path);
  if (!resolved.ok) return resolved.result;

  const opts = {
    tolerance: ctx.settings.edit_tolerance,
    disabled: toRungIds(ctx.settings.disabled_rungs),
    gutter: ctx.settings.gutter_strip,
  };
  const applied: Applied[] = resolved.targets.map((target) => ({
    target,
    result: applyHunks(target.before ?? '', target.hunks, opts),
  }));
  const reports: FileReport[] = applied.map(({ target, result }) => ({
    display: target.file.display,
    mode: target.mode,
    outcomes: result.outcomes,
  }));

  if (applied.some((a) => !a.result.ok)) return fail(failedText(reports, opts), failureNotes(reports, opts));

  const leftover = applied.find((a) => a.target.mode === 'delete' && a.result.text.trim() !== '');
  if (leftover) return refusal(deleteLeftoverText(leftover), 'delete-incomplete');

  const changed = applied.filter((a) => a.target.mode === 'delete' || a.result.text !== a.target.before);
  if (changed.length === 0) {
    const names = applied.map((a) => a.target.file.display).join(', ');
    return refusal(
      `No-op edit refused — the patch leaves ${names} exactly as it is: its new lines are the lines already there. Nothing was changed. ` +
        `Put the changed lines in the + lines (or in the REPLACE part of a block).`,
      'no-op',
    );
  }

  const committed = await commitAll(ctx, changed);
  if (!committed.ok) return committed.result;

  const notes: Note[] = [...successNotes(reports), ...committed.notes];
  const tail = rungNotes(reports);
  if (notes.some((n) => n.kind === 'gutter-stripped')) tail.push(GUTTER_NOTE);
  const text = [successText(reports, opts), ...tail].join('\n');
  return ok(text, notes, committed.changes);
}

function tooManyHunksText(hunks: number): string {
  const n = (x: number) => x.toLocaleString('en');
  return (
    `Patch refused — the patch has ${n(hunks)} hunks; ws_patch applies at most ${n(MAX_PATCH_HUNKS)} per call. Nothing was changed. ` +
    `Split it into several ws_patch calls of at most ${n(MAX_PATCH_HUNKS)} hunks each.`
  );
}

/** Writes (or deletes) every changed file; a backend failure undoes the files already written, so none is left half-patched. */
async function commitAll(
  ctx: ToolContext,
  changed: readonly Applied[],
): Promise<{ ok: true; notes: Note[]; changes: FileChange[] } | { ok: false; result: ToolResult }> {
  const notes: Note[] = [];
  const changes: FileChange[] = [];
  for (const { target, result } of changed) {
    const { file, before } = target;
    if (target.mode === 'delete') {
      try {
        await ctx.ws.remove(file.path);
      } catch (e) {
        if (!isWorkspaceError(e)) throw e;
        return { ok: false, result: await undone(ctx, changes, fail(writeErrorText('ws_patch', file.display, e))) };
      }
      const cp = recordCheckpoint(ctx, 'ws_patch', file.path, before);
      ctx.state.forget(file.path);
      if (cp) notes.push(cp.note);
      changes.push({ path: file.path, before, after: null });
      continue;
    }
    const c = await commitText(ctx, 'ws_patch', file, before, result.text);
    if (!c.ok) return { ok: false, result: await undone(ctx, changes, c.result) };
    notes.push(...c.committed.notes);
    changes.push(...c.committed.changes);
  }
  return { ok: true, notes, changes };
}

/** Restores the files already written by this call, then returns `result` saying so. */
async function undone(ctx: ToolContext, changes: readonly FileChange[], result: ToolResult): Promise<ToolResult> {
  const stuck: string[] = [];
  for (const c of [...changes].reverse()) {
    try {
      if (c.before === null) await ctx.ws.remove(c.path);
      else await ctx.ws.writeFile(c.path, encodeText(c.before));
      if (c.before === null) ctx.state.forget(c.path);
      else ctx.state.markSeen(c.path, c.before);
    } catch (e) {
      if (!isWorkspaceError(e)) throw e;
      stuck.push(c.path);
    }
  }
  if (changes.length === 0) return result;
  const tail = stuck.length
    ? `\nThe files written before the failure could not all be restored (${stuck.join(', ')}): ws_read them before going on.`
    : `\nThe ${changes.length} file(s) written before the failure were restored, so the patch left nothing behind.`;
  return { ...result, text: result.text + tail };
}

function deleteLeftoverText(a: Applied): string {
  return (
    `Patch refused — the diff deletes ${a.target.file.display} (its +++ line is /dev/null), but its - lines do not cover all of the file: ` +
    `after them these lines would remain:\n${a.result.text.split('\n').slice(0, 5).join('\n')}\nNothing was changed. ` +
    `To delete the file, use ws_delete ${JSON.stringify({ path: a.target.file.display })}.`
  );
}

/** The refusal rule id of a hunk failure, as notes name it. */
function ruleOf(f: HunkFailure): string {
  switch (f.kind) {
    case 'not-found':
      return 'not-found';
    case 'ambiguous':
      return f.rung === 'exact' ? 'found-n-times' : 'ambiguous';
    case 'conflict':
      return 'anchor-conflict';
    case 'partial-gutter':
      return 'partial-gutter';
    case 'insert-range':
      return 'insert-out-of-range';
    case 'no-anchor':
      return 'no-anchor';
    case 'not-tried':
      return 'not-tried';
    default: {
      const never: never = f;
      throw new Error(`ruleOf: unhandled ${JSON.stringify(never)}`);
    }
  }
}

function failureNotes(reports: readonly FileReport[], tried: LadderTried): Note[] {
  const notes: Note[] = [];
  for (const r of reports) {
    r.outcomes.forEach((o, i) => {
      if (o.kind !== 'failed') return;
      notes.push({
        kind: 'refusal',
        text: `${r.display} hunk ${i + 1}: ${firstLine(failureText(o.failure, r.display, tried))}`,
        detail: ruleOf(o.failure),
      });
      if (o.failure.kind === 'not-found' && o.failure.closest) {
        const c = o.failure.closest;
        notes.push({
          kind: 'hint',
          text: `${r.display} hunk ${i + 1}: closest span lines ${c.startLine}–${c.endLine}`,
          detail: 'closest',
        });
      }
    });
  }
  return notes;
}

function successNotes(reports: readonly FileReport[]): Note[] {
  const notes: Note[] = [];
  for (const r of reports) {
    r.outcomes.forEach((o, i) => {
      if (o.kind !== 'anchored') return;
      notes.push(...driftNotes(o.rung, o.drifts, `${r.display} hunk ${i + 1} `));
      if (o.gutter)
        notes.push({
          kind: 'gutter-stripped',
          text: `stripped the read gutter from ${r.display} hunk ${i + 1}`,
          detail: 'gutter',
        });
    });
  }
  return notes;
}
