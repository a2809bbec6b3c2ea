/**
 * The gate for a session from outside (a shared link, a file someone sent): the format version
 * first, so a newer record says so instead of failing field by field; then the schema, naming
 * the first field that is wrong; then every starting file path through the engine's own jail,
 * as if the model were writing it. Nothing here throws for bad input: each problem is an
 * outcome whose text names the cause and what to do instead.
 */
import { resolvePath } from '../engine/jail.ts';
import { MemoryWorkspace } from '../workspace/memory/memory-workspace.ts';
import type { z } from 'zod';
import { RECORD_VERSION, sessionSchema, type Session } from './record.ts';

/** Why a record was refused: the kinds a UI can tell apart. */
export type RefusalKind =
  | 'not-a-link'
  | 'bad-characters'
  | 'truncated'
  | 'corrupt'
  | 'too-large'
  | 'bomb'
  | 'not-json'
  | 'newer-version'
  | 'schema'
  | 'path';

/**
 * What is wrong with a link that is its own fault, said plainly: `damaged` (characters changed
 * or lost in copying), `cut` (its end is missing) or `altered` (intact, but edited or made by
 * another program: not a session this build would write).
 */
export type LinkFault = 'damaged' | 'cut' | 'altered';

export type SessionCheck =
  | { readonly ok: true; readonly session: Session }
  | { readonly ok: false; readonly kind: RefusalKind; readonly text: string; readonly fault?: LinkFault };

export function refuseRecord(kind: RefusalKind, text: string, fault: LinkFault | null = null): SessionCheck {
  return { ok: false, kind, text, ...(fault && { fault }) };
}

/** Checks a parsed JSON value as a session record from outside. */
export async function checkSession(value: unknown): Promise<SessionCheck> {
  const v =
    typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as { v?: unknown }).v : undefined;
  if (typeof v === 'number' && v > RECORD_VERSION) {
    return refuseRecord(
      'newer-version',
      `This session was recorded in format v${v}, newer than this build reads (v${RECORD_VERSION}). Open it in a newer slmcode playground, or update this one.`,
    );
  }
  const parsed = sessionSchema.safeParse(value);
  if (!parsed.success) {
    return refuseRecord(
      'schema',
      `This is not a valid session record: ${schemaProblem(parsed.error)}. It was changed after it was recorded, or made by another program; ask for the file as it was recorded.`,
    );
  }
  const session = parsed.data;
  if ('files' in session.workspace) {
    for (const path of Object.keys(session.workspace.files)) {
      const problem = await recordedPathProblem(path);
      if (problem) {
        return refuseRecord(
          'path',
          `The session was not opened: its starting files include ${JSON.stringify(path)}, which the workspace refuses — ${problem} A recorded session never carries such a path; ask for the file as it was recorded.`,
        );
      }
    }
  }
  return { ok: true, session };
}

/** `steps.3.resultHash: must be 12 lowercase hex digits` — the first problem, by field, and how many more. */
function schemaProblem(error: z.ZodError): string {
  const [first, ...rest] = error.issues;
  const field = first!.path.length ? first!.path.map(String).join('.') : 'the top level';
  const more = rest.length ? ` (and ${rest.length} more problem${rest.length === 1 ? '' : 's'})` : '';
  return `field ${field}: ${first!.message}${more}`;
}

let emptyWorkspace: MemoryWorkspace | undefined;

/**
 * Why the jail would refuse writing `path` as a starting file, or null when it is fine. The
 * path must also be in the jail's normal form, so two spellings cannot name one file.
 */
export async function recordedPathProblem(path: string): Promise<string | null> {
  // An empty workspace: the lexical rules and the .slmcode/ boundary decide, no symlink exists to follow.
  emptyWorkspace ??= new MemoryWorkspace();
  const jailed = await resolvePath(emptyWorkspace, path, 'write');
  if (!jailed.ok) return jailed.text;
  if (jailed.path !== path)
    return `it is not written in normal form (the workspace would store it as ${JSON.stringify(jailed.path)}).`;
  return null;
}
