/**
 * The shape of an execution plan (built by plan.ts, run by the backends): types only, so the
 * decision that carries a plan needs nothing of the code that builds one.
 */
import type { ExecSink } from '../workspace.ts';

/** One argument: its literal text, and its bash pattern when bash would expand it as a glob. */
export interface PlanArg {
  readonly text: string;
  /** Set when the word has an unquoted `*`, `?` or `[`: the pattern, quoted characters backslash-escaped. */
  readonly glob?: string;
}

/** What a stage's descriptor 0 reads. */
export type PlanInput =
  | { readonly kind: 'pipe' }
  | { readonly kind: 'empty' }
  | { readonly kind: 'text'; readonly text: string; readonly from: 'heredoc' | 'herestring' }
  | { readonly kind: 'file'; readonly path: string };

export interface PlanStage {
  readonly args: readonly PlanArg[];
  readonly env: Readonly<Record<string, string>>;
  readonly stdin: PlanInput;
  readonly stdout: ExecSink;
  readonly stderr: ExecSink;
}

/** The whole command as it will run. JSON-serializable (`slm check-shell` prints it). */
export interface ShellPlan {
  readonly stages: readonly PlanStage[];
}
