/**
 * The results of an eval run (`results.json`, written by `slm eval` and the Eval page): which
 * suite and model, the arms, one row per task × arm × seed session, and a summary per arm. The
 * zod schema is the one gate for a results file opened again later (untrusted input: every size
 * is bounded). No DOM, no Node builtins: the engine worker, the page and the CLI share it.
 *
 * `model.label` says whether the numbers mean anything: `scripted` (recorded or reference
 * turns) and `test-model` (the random-weight GGUF) runs measure the pipeline, never a model,
 * and every table, report and page says so.
 */
import { z } from 'zod';

/** The results format this build writes and reads. */
export const RESULTS_VERSION = 1;

/**
 * Why a run that did not pass failed (`taxonomy.ts` decides). `infrastructure` is not the
 * model's: the grader or the test run could not start or finish (a runner not found, refused,
 * its own timeout). Such runs are listed apart and left out of pass rates and comparisons.
 */
export const FAILURE_KINDS = [
  'no-valid-call',
  'loop',
  'wrong-edit',
  'gave-up',
  'step-limit',
  'context-overflow',
  'model-error',
  'infrastructure',
] as const;
export type FailureKind = (typeof FAILURE_KINDS)[number];

/** What kind of model made the runs: only `real` numbers measure a model. */
export const MODEL_LABELS = ['scripted', 'test-model', 'real'] as const;
export type ModelLabel = (typeof MODEL_LABELS)[number];

/** Bounds on a results file from outside. */
export const RESULTS_LIMITS = Object.freeze({ runs: 100_000, arms: 64, tasks: 1000, text: 2000 });

const text = (max: number = RESULTS_LIMITS.text) => z.string().max(max);
const count = z.number().int().min(0);
const counts = z.record(text(64), count);

const modelSchema = z.object({
  /** The model spec as given (`openai:…#…`, `gguf:FILE`, `scripted:FILE`, `reference`). */
  id: text(),
  label: z.enum(MODEL_LABELS),
  /** One sentence for people: what the label means for these numbers. */
  note: text(),
});

const armSchema = z.object({
  id: text(64),
  /** What the arm changes, for people. */
  label: text(),
  /** The engine settings over the defaults (empty for `on`); `naive` arms run the ACI-off harness instead of the engine's tools. */
  settings: z.record(text(64), z.unknown()),
  naive: z.boolean(),
});

const runSchema = z.object({
  task: text(128),
  arm: text(64),
  seed: count,
  /** The hidden grader passed on the workspace the run left. */
  passed: z.boolean(),
  steps: count,
  /** Prompt + completion tokens over all steps. */
  tokens: count,
  /** True when any step's tokens are a characters/4 estimate (the model reported no usage). */
  tokensEstimated: z.boolean(),
  /** Wall time of the session, grading excluded. */
  ms: z.number().min(0),
  /** The session file, relative to the output folder (`slm replay` reads it). */
  session: text(),
  failure: z.enum(FAILURE_KINDS).nullable(),
  /** How the loop ended (`done`, `max-steps`, `parse-failures`, `model-error`). */
  stop: text(64),
  /** ACI mechanism id → steps it fired in (session/mechanisms.ts). */
  mechanisms: counts,
  /** With `--attempts 2`: whether the first attempt passed (pass@1; `passed` is then pass@2). */
  passedFirst: z.boolean().optional(),
  /** The second attempt's session file, when there was one. */
  retrySession: text().optional(),
  /** The grader's tally, and its output's last lines when it failed. */
  grader: z.object({ passed: count, failed: count, excerpt: text(4000).optional() }),
});

const intervalSchema = z.tuple([z.number().min(0).max(1), z.number().min(0).max(1)]);

const armSummarySchema = z.object({
  arm: text(64),
  runs: count,
  passed: count,
  passRate: z.number().min(0).max(1),
  /** 95% Wilson score interval of the pass rate. */
  ci95: intervalSchema,
  meanSteps: z.number().min(0),
  meanTokens: z.number().min(0),
  meanMs: z.number().min(0),
  failures: counts,
  mechanisms: counts,
  /** With two attempts: runs whose first attempt passed (pass@1); `passed` is then pass@2. */
  passedFirst: count.optional(),
  /** Runs left out of the rate above because the grader could not run (absent in files written before it existed). */
  infrastructure: count.optional(),
});

const differenceSchema = z.tuple([z.number().min(-1).max(1), z.number().min(-1).max(1)]);

/** Arm `a` against arm `b` over the task × seed pairs both finished (src/eval/paired.ts). */
const pairedSchema = z.object({
  a: text(64),
  b: text(64),
  pairs: count,
  both: count,
  onlyA: count,
  onlyB: count,
  neither: count,
  /** pA − pB over the pairs. */
  difference: z.number().min(-1).max(1),
  /** Newcombe's 95% interval for the difference. */
  ci95: differenceSchema,
  /** Two-sided exact McNemar p-value. */
  pValue: z.number().min(0).max(1),
  /** Task id → the arm that passed more of its seeds, or null for a tie. */
  winners: z.record(text(128), text(64).nullable()),
});

export const resultsSchema = z.object({
  v: z.literal(RESULTS_VERSION),
  /** `builtin` or the suite folder as given. */
  suite: text(),
  model: modelSchema,
  createdAt: text(40),
  /** False when the run was interrupted: the runs are the sessions that finished. */
  complete: z.boolean(),
  arms: z.array(armSchema).max(RESULTS_LIMITS.arms),
  seeds: z.number().int().min(1),
  /** Attempts per run (`--attempts`; absent means 1). */
  attempts: z.number().int().min(1).max(2).optional(),
  /** Task id → the ACI mechanisms the task is meant to exercise. */
  tasks: z
    .record(text(128), z.array(text(64)).max(32))
    .refine((t) => Object.keys(t).length <= RESULTS_LIMITS.tasks, `must hold at most ${RESULTS_LIMITS.tasks} tasks`),
  runs: z.array(runSchema).max(RESULTS_LIMITS.runs),
  summary: z.object({
    arms: z.array(armSummarySchema).max(RESULTS_LIMITS.arms),
    /** Every other arm against the first, paired (absent in files written before it existed). */
    paired: z.array(pairedSchema).max(RESULTS_LIMITS.arms).optional(),
  }),
  /** This file holds one shard of the planned runs (`slm eval --shard I/N`); absent for a whole eval. */
  shard: z.object({ index: z.number().int().min(1), count: z.number().int().min(1) }).optional(),
});

export type EvalResults = z.infer<typeof resultsSchema>;
export type EvalRun = z.infer<typeof runSchema>;
export type ArmSummary = z.infer<typeof armSummarySchema>;
export type ModelInfo = z.infer<typeof modelSchema>;
export type PairedSummary = z.infer<typeof pairedSchema>;

export type ResultsCheck =
  { readonly ok: true; readonly results: EvalResults } | { readonly ok: false; readonly text: string };

/** Checks a parsed results file; a failure names each wrong field. */
export function checkResults(value: unknown): ResultsCheck {
  const parsed = resultsSchema.safeParse(value);
  return parsed.success
    ? { ok: true, results: parsed.data }
    : { ok: false, text: `not an eval results file (v${RESULTS_VERSION}):\n${z.prettifyError(parsed.error)}` };
}
