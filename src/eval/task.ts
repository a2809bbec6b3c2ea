/**
 * An eval task: a small project the model starts from, the statement it is given, the
 * grader tests it never sees (run after the session, in a copy of the workspace it left), and
 * the reference solution kept beside them. Each task names the ACI mechanisms it is meant to
 * exercise. The builtin suite is TypeScript modules (`tasks/`); a suite folder holds one
 * `*.task.json` per task in this same shape, checked by `taskSchema`. No DOM, no Node builtins.
 */
import { z } from 'zod';

/** The ACI mechanisms a task can be written to exercise. */
export const TASK_MECHANISMS = [
  'paging', // a file longer than the read window: the change is past the first page
  'repeated-span', // the text to change occurs in several places: a unique anchor (or replace_all) is needed
  'indentation', // deep or mixed indentation that a recalled old_str gets wrong
  'multi-file', // one change spread over several files
  'rename', // a file or a name moves: every use must follow
  'test-output', // the bug is found only by reading what the failing test prints
  'do-not-touch', // a file that must stay byte for byte as it was
  'whole-file-rewrite', // a long file where rewriting it whole loses code
  'syntax', // an edit easily left unparseable (brackets, template strings, JSON)
  'quotes', // quote or dash styles a model normalises when it recalls the text
  'whitespace', // trailing spaces and blank lines a recalled old_str leaves out
  'long-output', // a command or search whose output is far longer than the result cap
  'new-file', // a file that does not exist yet
  'json', // a JSON file edited (strict syntax)
] as const;

/** The folder the grader's files are written to, in the copy of the finished workspace they run in. */
export const GRADER_DIR = 'eval-grader';

const path = z
  .string()
  .min(1)
  .max(256)
  .regex(/^(?!\/)(?!.*(?:^|\/)\.\.(?:\/|$))[^\0\\]+$/, 'must be a relative path inside the project');
const files = z.record(path, z.string().max(200_000));

/**
 * What a grader checks of the files themselves, engine-side (a grader test runs where the
 * browser's sandbox has no `node:fs`): a file left byte for byte as it started, a file gone,
 * a pattern found (or not: `expect: false`) in a file, top-level JSON fields equal.
 */
const checkSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('unchanged'), path }),
  z.strictObject({ kind: z.literal('absent'), path }),
  z.strictObject({
    kind: z.literal('matches'),
    path,
    pattern: z.string().min(1).max(2000),
    flags: z
      .string()
      .regex(/^[imsu]*$/)
      .optional(),
    expect: z.boolean(),
  }),
  z.strictObject({ kind: z.literal('json'), path, fields: z.record(z.string().max(200), z.unknown()) }),
]);
export type FileCheck = z.infer<typeof checkSchema>;

/** The languages a task's project can be in; the grader's default command follows from it. */
export const TASK_LANGUAGES = ['javascript', 'typescript', 'python'] as const;

/** Longest task statement (a benchmark's instructions with their appendix fit). */
export const MAX_STATEMENT = 16_000;

export const taskSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'must be lowercase letters, digits and dashes'),
  title: z.string().min(1).max(200),
  /** What the model is told. */
  statement: z.string().min(1).max(MAX_STATEMENT),
  /** The ACI mechanisms the task is written to exercise; a task from a benchmark may name none. */
  mechanisms: z.array(z.enum(TASK_MECHANISMS)).max(8).default([]),
  /** The project's language (default javascript). */
  language: z.enum(TASK_LANGUAGES).optional(),
  /**
   * The grader's command, run from the workspace root through the shell policy like any command
   * (default: `node --test` over the grader files).
   */
  test_command: z.string().min(1).max(1000).optional(),
  /**
   * Where the grader's files are written in the finished workspace: GRADER_DIR by default, or
   * another folder ('' for the project root, so a benchmark's tests sit where they import the
   * project from, written over any copy the model changed).
   */
  grader_dir: path.or(z.literal('')).optional(),
  /** The starting workspace, path → text. */
  files,
  /** Grader test files, path relative to the grader folder (GRADER_DIR unless `grader_dir` says) → text. */
  grader: files.refine((g) => Object.keys(g).length > 0, 'needs at least one grader test file'),
  /** File checks the grader makes besides its tests. */
  checks: z.array(checkSchema).max(200).optional(),
  /** The reference solution: files to write over the start (text) or remove (null). */
  solution: z
    .record(path, z.string().max(200_000).nullable())
    .refine((s) => Object.keys(s).length > 0, 'must change at least one file'),
});

export type EvalTask = z.infer<typeof taskSchema>;

/** The workspace a reference solution leaves: the start with the solution's files written or removed. */
export function solvedFiles(task: EvalTask): Record<string, string> {
  const out: Record<string, string> = { ...task.files };
  for (const [p, text] of Object.entries(task.solution)) {
    if (text === null) delete out[p];
    else out[p] = text;
  }
  return out;
}

/** Strips the first newline of a template literal, so a file's text can start on the line after the backtick. */
export function file(strings: TemplateStringsArray, ...values: unknown[]): string {
  return String.raw({ raw: strings.raw }, ...values).replace(/^\n/, '');
}
