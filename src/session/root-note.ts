/**
 * The short note a step shows when its command ran where the workspace is not at
 * WORKSPACE_PATH (WebContainer keeps it in its home directory): its output was compared with
 * that root read as WORKSPACE_PATH, so paths alone never make it differ (equivalence.ts's
 * `normaliseRoot` does the reading).
 */
import { WORKSPACE_PATH } from '../engine/workspace.ts';

/** The note for a step whose record and replay ran with roots `recorded` and `replayed` (absent: WORKSPACE_PATH); null when both are WORKSPACE_PATH. */
export function rootNote(recorded: string | undefined, replayed: string | undefined): string | null {
  const roots = [...new Set([recorded, replayed].filter((r): r is string => r !== undefined && r !== WORKSPACE_PATH))];
  if (roots.length === 0) return null;
  const where = roots.map((r) => `\`${r}\``).join(' and ');
  return `Workspace root normalised: this command saw the workspace at ${where}, not ${WORKSPACE_PATH}, so its output was compared with ${roots.length === 1 ? 'that root' : 'those roots'} read as ${WORKSPACE_PATH}.`;
}
