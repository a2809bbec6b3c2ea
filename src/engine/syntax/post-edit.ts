/**
 * The post-edit syntax check (the engine's `postEdit` hook). After a writing tool succeeds,
 * every file it left behind with a checkable extension is parsed, and the call ends one of
 * three ways:
 * - it parses, or no verdict could be given (no checker, checker missing): the result is
 *   unchanged; a check skipped at a bound (the file's size, the time budget, the nesting depth) adds one line
 *   saying so, since the model would otherwise take the silence for "it parses";
 * - it parsed before and does not now: the whole call is undone (each `before` written back
 *   byte for byte, created files removed) and the model gets the spec's EDIT REVERTED text;
 * - it did not parse before either, or it is a new file: the change stays and the parse error
 *   is appended to the result, so the model fixes it on its next turn.
 * A file whose earlier text could not be judged is never reverted: only a proven "parsed
 * before" justifies throwing an edit away.
 */
import type { PostEditHook } from '../engine.ts';
import type { ToolContext } from '../context.ts';
import { fail, type FileChange, type Note, type ToolResult } from '../result.ts';
import { encodeText } from '../text.ts';
import { isWorkspaceError } from '../workspace.ts';
import { checkSyntax } from './check.ts';
import type { CheckOptions, SyntaxVerdict } from './verdict.ts';
import { withVerdictCache, type VerdictCache } from './verdict-cache.ts';

/** The spec's revert message for `path`, broken as `after` says. */
export function revertText(path: string, after: SyntaxVerdict): string {
  return [
    `EDIT REVERTED — ${path} parsed correctly before your change and does NOT parse after it (${after.checker}): ${after.message ?? 'parse error'}`,
    'The file is unchanged on disk. Fix the syntax in your replacement text and retry:',
    '• check brackets/parens/quotes are balanced in new_str',
    '• check indentation matches the surrounding block',
    'Do NOT retry the identical edit — it will be reverted again.',
  ].join('\n');
}

/** The in-band line appended when a file is left broken; `before` is null for a new file. */
export function stillBrokenText(path: string, after: SyntaxVerdict, before: SyntaxVerdict | null): string {
  const where = `(${after.checker}): ${after.message ?? 'parse error'}`;
  if (before === null)
    return `[syntax: ${path} does not parse ${where} — the new file was kept as written; fix it next with ws_edit]`;
  if (before.status === 'error')
    return `[syntax: ${path} still does not parse ${where} — it did not parse before this call either; fix it next with ws_edit]`;
  return `[syntax: ${path} does not parse ${where} — fix it next with ws_edit]`;
}

/** The in-band line for a check that was skipped at a bound (size, time or nesting depth). */
export function skippedText(path: string, verdict: SyntaxVerdict): string {
  return `[syntax check skipped for ${path} (${verdict.checker}): ${verdict.message ?? 'not judged'}]`;
}

/** A syntax checker: `checkSyntax`, or one that can stand in for it (e.g. `node --check` in a workspace with Node). */
export type SyntaxChecker = (path: string, text: string, opts?: CheckOptions) => Promise<SyntaxVerdict | null>;

export interface SyntaxPostEditOptions extends CheckOptions {
  /**
   * The checker that judges each text; by default `checkSyntax`, its verdicts remembered in
   * `verdictCache`. A checker given here is asked every time: it may read the workspace (as
   * `node --check` does), so its verdict is not a function of the path and text alone.
   */
  readonly check?: SyntaxChecker;
  /** Where the default checker's verdicts are kept; a cache of its own per hook when not given. */
  readonly verdictCache?: VerdictCache;
}

/** A post-edit hook with its own check options (the time budget) and, optionally, its own checker. */
export function createSyntaxPostEdit(options: SyntaxPostEditOptions = {}): PostEditHook {
  const { check: own, verdictCache, ...opts } = options;
  const check = own ?? withVerdictCache(checkSyntax, verdictCache);
  return async (ctx, _tool, result) => {
    const appended: { text: string; note: Note }[] = [];
    for (const change of result.changes) {
      if (change.after === null) continue;
      const after = await check(change.path, change.after, opts);
      if (after?.status === 'skipped' && after.bound) {
        appended.push({
          text: skippedText(change.path, after),
          note: {
            kind: 'cap',
            text: `syntax check of ${change.path} skipped: ${after.message ?? ''}`,
            detail: `syntax-${after.bound}`,
          },
        });
      }
      if (after?.status !== 'error') continue;
      // Only now is the earlier text worth parsing; a new file counts as "did not parse".
      const earlier = change.before ?? movedFrom(result.changes, change.after);
      const before = earlier === null ? null : await check(change.path, earlier, opts);
      if (before?.status === 'ok') return revert(ctx, result, change, after);
      appended.push({
        text: stillBrokenText(change.path, after, before),
        note: {
          kind: 'syntax-error',
          text: `${change.path} does not parse (${after.checker} ${after.message ?? ''})`,
          detail: after.checker,
        },
      });
    }
    if (!appended.length) return result;
    return {
      ...result,
      text: `${result.text}\n${appended.map((b) => b.text).join('\n')}`,
      notes: [...result.notes, ...appended.map((b) => b.note)],
    };
  };
}

/**
 * The text a created path had under the path it was moved from (ws_mv reports a move as a
 * removal plus a creation), so a moved broken file counts as "broken before", not as new.
 */
function movedFrom(changes: readonly FileChange[], text: string): string | null {
  return changes.some((c) => c.after === null && c.before === text) ? text : null;
}

/** The hook the engine is built with: the default 2 s budget per check. */
export const syntaxPostEdit: PostEditHook = createSyntaxPostEdit();

/**
 * Undoes every change of the call, last first (a call that touched several files must not be
 * left half-applied), and restores what the session has seen to match the disk.
 */
async function revert(
  ctx: ToolContext,
  result: ToolResult,
  broken: FileChange,
  after: SyntaxVerdict,
): Promise<ToolResult> {
  const note: Note = {
    kind: 'syntax-revert',
    text: `reverted: ${broken.path} stopped parsing (${after.checker} ${after.message ?? ''})`,
    detail: after.checker,
  };
  for (const change of [...result.changes].reverse()) {
    try {
      await restore(ctx, change);
    } catch (e) {
      // The disk still holds the broken text: say so rather than claim it is unchanged.
      const why = e instanceof Error ? e.message : String(e);
      return {
        ...result,
        ok: false,
        text:
          `${broken.path} does NOT parse after your change (${after.checker}): ${after.message ?? 'parse error'}\n` +
          `Undoing the change failed (${why}), so the broken text is still on disk — fix the syntax with ws_edit next.`,
        notes: [
          ...result.notes,
          { kind: 'syntax-error', text: `revert of ${change.path} failed: ${why}`, detail: after.checker },
        ],
      };
    }
  }
  const others = result.changes.filter((c) => c.path !== broken.path).map((c) => c.path);
  const tail = others.length
    ? `\nThe call's changes to ${others.join(', ')} were undone too, so it left nothing behind.`
    : '';
  return fail(revertText(broken.path, after) + tail, [...result.notes, note], []);
}

async function restore(ctx: ToolContext, change: FileChange): Promise<void> {
  if (change.before !== null) {
    await ctx.ws.writeFile(change.path, encodeText(change.before));
    ctx.state.markSeen(change.path, change.before);
    return;
  }
  try {
    await ctx.ws.remove(change.path);
  } catch (e) {
    if (!isWorkspaceError(e, 'ENOENT')) throw e;
  }
  ctx.state.forget(change.path);
}
