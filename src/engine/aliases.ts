/**
 * Argument aliases: small models spell `old_str` as `old_string`, `search` or `old`. The
 * canonical key wins when both are present; every accepted alias is noted for the inspector.
 */
import type { ToolDef } from './tool.ts';
import type { Note } from './result.ts';

/** The argument any writing tool accepts to skip the post-edit syntax check. */
export const DISABLE_SYNTAX_CHECK = 'disable_syntax_check';

export function normalizeArgs(
  def: ToolDef<any>,
  raw: Record<string, unknown>,
): { args: Record<string, unknown>; aliasNotes: Note[]; disableSyntax: boolean } {
  const args: Record<string, unknown> = { ...raw };
  const aliasNotes: Note[] = [];
  let disableSyntax = false;
  if (def.writes && DISABLE_SYNTAX_CHECK in args) {
    disableSyntax = args[DISABLE_SYNTAX_CHECK] === true;
    delete args[DISABLE_SYNTAX_CHECK];
  }
  for (const [alias, canonical] of Object.entries(def.aliases ?? {})) {
    if (!(alias in args)) continue;
    if (!(canonical in args)) {
      args[canonical] = args[alias];
      aliasNotes.push({ kind: 'alias', text: `${alias} accepted as ${canonical}`, detail: alias });
    }
    delete args[alias];
  }
  return { args, aliasNotes, disableSyntax };
}
