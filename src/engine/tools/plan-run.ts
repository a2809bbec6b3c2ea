/**
 * From the policy's plan to the backend's: patterns expanded against the workspace the way
 * bash expands them (sorted in C order, names starting with `.` only for a pattern that starts
 * with `.`, `.` and `..` never, no match → the word as it is), and input files read through the
 * jail. What the backend receives is literal: argv, environment, stdin bytes and descriptor
 * routing, with nothing left for a shell to interpret.
 */
import { HARNESS_DIR } from '../jail.ts';
import type { ToolContext } from '../context.ts';

/** What expanding a plan needs of a tool's context: the workspace and its jail. */
export type PlanContext = Pick<ToolContext, 'ws' | 'resolve'>;
import type { ExecPlan, ExecStage } from '../workspace.ts';
import type { PlanArg, PlanInput, ShellPlan } from '../shell/plan-types.ts';
import {
  bashSeesPattern,
  isPattern,
  segmentMatcher,
  splitSegments,
  unescape,
  usesCollation,
} from '../shell/pattern.ts';
import { utf8Length } from '../text.ts';

/** Largest input file a command may read through `<` (it is held in memory whole). */
export const MAX_STDIN_BYTES = 16 * 1024 * 1024;

/** Paths a pattern may expand to, most: past this the command is refused, not cut. */
export const MAX_GLOB_MATCHES = 10_000;

/**
 * Arguments a whole command may have once its patterns are expanded (every stage together):
 * past this it is refused, not cut. Counted while expanding, so `echo * * * …` stops as soon as
 * it passes the cap instead of building millions of paths first.
 */
export const MAX_EXPANDED_ARGS = 50_000;

/**
 * Bytes those arguments may take (each one's UTF-8 length plus its terminating NUL), every stage
 * together: half of Linux's usual ARG_MAX of 2 MiB, which also counts the environment.
 */
export const MAX_EXPANDED_BYTES = 1024 * 1024;

/** What the command's arguments have used so far, and when the call's time runs out. */
interface Budget {
  args: number;
  bytes: number;
  /** Date.now() past which expansion stops (Infinity: no deadline). */
  readonly deadline: number;
}

/** Which cap a command with `args` arguments of `bytes` bytes passes, said as the refusal's end; null within both. */
function overCap(args: number, bytes: number): string | null {
  const next = 'narrow the patterns or run the command on fewer files at a time';
  if (args > MAX_EXPANDED_ARGS)
    return `makes the command's arguments more than ${MAX_EXPANDED_ARGS.toLocaleString('en-US')} arguments (the limit for one command, every stage together); ${next}`;
  if (bytes > MAX_EXPANDED_BYTES)
    return `makes the command's arguments more than ${MAX_EXPANDED_BYTES.toLocaleString('en-US')} bytes (the limit for one command, every stage together, about half of Linux's ARG_MAX); ${next}`;
  return null;
}

/** Takes `words` out of the budget, or says which cap they pass (the pattern is named by the caller). */
function spend(budget: Budget, words: readonly string[]): string | null {
  let bytes = 0;
  for (const w of words) bytes += utf8Length(w) + 1;
  const over = overCap(budget.args + words.length, budget.bytes + bytes);
  if (over !== null) return over;
  budget.args += words.length;
  budget.bytes += bytes;
  return null;
}

/** Throws when the call's deadline has passed: expansion runs on the call's own time. */
function checkDeadline(budget: Budget, pattern: string): void {
  if (Date.now() > budget.deadline)
    throw new GlobRefused(
      pattern,
      'could not be expanded: the timeout ran out while expanding it; nothing ran. Narrow the pattern or raise timeout_ms',
      124,
    );
}

export type Resolved =
  | {
      readonly ok: true;
      readonly plan: ExecPlan;
      /** Per stage, per word of its argv: true when the command wrote the word, false when a pattern gave it. */
      readonly written: readonly (readonly boolean[])[];
    }
  | { readonly ok: false; readonly why: string; readonly exitCode: number };

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** True for a directory the jail resolves inside the root (through any symlinks). */
async function isDirectory(ctx: PlanContext, path: string): Promise<boolean> {
  if (path === '') return true;
  const r = await ctx.resolve(path, 'read');
  return r.ok && (await ctx.ws.lstat(r.path))?.type === 'dir';
}

/** True when something the jail accepts is at `path`. */
async function exists(ctx: PlanContext, path: string): Promise<boolean> {
  const r = await ctx.resolve(path, 'read');
  return r.ok && (await ctx.ws.lstat(r.path)) !== null;
}

/** A partial match: the path as bash prints it, and as the workspace knows it ('' = the root). */
interface Match {
  readonly shown: string;
  readonly path: string;
}

/**
 * `m` joined with one more name. Once the path before it is a pattern to bash
 * (`bashSeesPattern`), bash joins with one slash however many were written (`s*` `//deep` gives
 * `src/deep`); before that it keeps what was written (`dir//x*` gives `dir//x`, and so does
 * `d[//x*`: an unclosed `[` is no pattern).
 */
function child(m: Match, name: string, afterPattern: boolean): Match {
  const sep = m.shown === '' || (afterPattern && m.shown.endsWith('/')) ? '' : '/';
  return { shown: `${m.shown}${sep}${name}`, path: m.path === '' ? name : `${m.path}/${name}` };
}

/** Expands one pattern relative to the root; an empty list when nothing matches. */
async function expand(ctx: PlanContext, pattern: string, budget: Budget): Promise<string[]> {
  const segments = splitSegments(pattern);
  if (segments[0] === '' || segments.includes('..'))
    throw new GlobRefused(pattern, 'leaves the workspace (it is absolute or has a ".." segment)');
  if (segments.some(usesCollation))
    throw new GlobRefused(
      pattern,
      'has a collating symbol or equivalence class ([. or [= inside brackets), which ws_shell does not expand; list the characters in the brackets',
    );
  let partial: Match[] = [{ shown: '', path: '' }];
  let afterPattern = false;
  // What the last segment's matches add to the command so far, counted as they are found.
  let pendingBytes = 0;
  for (const [i, seg] of segments.entries()) {
    const last = i === segments.length - 1;
    const next: Match[] = [];
    for (const base of partial) {
      checkDeadline(budget, pattern);
      if (seg === '') {
        // A trailing slash keeps only directories; a doubled slash stays in what is printed
        // up to the first pattern, and is one slash after it.
        const shown = afterPattern && base.shown.endsWith('/') ? base.shown : `${base.shown}/`;
        if (await isDirectory(ctx, base.path)) next.push({ shown, path: base.path });
        continue;
      }
      if (seg === '.') {
        next.push({ shown: child(base, '.', afterPattern).shown, path: base.path });
        continue;
      }
      if (!isPattern(seg)) {
        const m = child(base, unescape(seg), afterPattern);
        if (last ? await exists(ctx, m.path) : await isDirectory(ctx, m.path)) next.push(m);
        continue;
      }
      if (base.path !== '' && !(await isDirectory(ctx, base.path))) continue;
      const matches = segmentMatcher(seg);
      const dotOk = seg.startsWith('.') || seg.startsWith('\\.');
      const names = await listDir(ctx, base.path);
      checkDeadline(budget, pattern);
      for (const [k, name] of names.entries()) {
        if (k % 1024 === 1023) checkDeadline(budget, pattern);
        if (name === '.' || name === '..') continue;
        if (name.startsWith('.') && !dotOk) continue;
        if (!matches(name)) continue;
        const m = child(base, name, afterPattern);
        if (!last && !(await isDirectory(ctx, m.path))) continue;
        next.push(m);
        if (next.length > MAX_GLOB_MATCHES)
          throw new GlobRefused(pattern, `matches more than ${MAX_GLOB_MATCHES} paths; narrow it`);
        if (last) {
          // The last segment's matches are arguments: stop as soon as they pass the command's total.
          pendingBytes += utf8Length(m.shown) + 1;
          const over = overCap(budget.args + next.length, budget.bytes + pendingBytes);
          if (over !== null) throw new GlobRefused(pattern, over);
        }
      }
    }
    partial = next;
    if (partial.length === 0) return [];
    // Once the path so far is a pattern to bash, every longer one is too: no need to look again.
    afterPattern ||= bashSeesPattern(segments.slice(0, i + 1).join('/'));
  }
  return partial.map((m) => m.shown).sort(byCodeUnit);
}

/** A pattern the runner will not expand: it would leave the workspace or match too much. */
class GlobRefused extends Error {
  constructor(
    readonly pattern: string,
    readonly why: string,
    readonly exitCode = 2,
  ) {
    super(`${pattern} ${why}`);
  }
}

async function listDir(ctx: PlanContext, dir: string): Promise<string[]> {
  const r = dir === '' ? { ok: true as const, path: '' } : await ctx.resolve(dir, 'read');
  if (!r.ok) return [];
  try {
    return (await ctx.ws.readdir(r.path)).map((e) => e.name);
  } catch {
    return [];
  }
}

/** True when an expanded path reaches state the shell never touches: `.git/` or `.slmcode/`. */
function protectedPath(path: string): boolean {
  return path.split('/').some((seg) => seg === '.git' || seg === HARNESS_DIR);
}

async function expandArgs(
  ctx: PlanContext,
  args: readonly PlanArg[],
  budget: Budget,
  written: boolean[],
): Promise<string[] | string> {
  const out: string[] = [];
  for (const a of args) {
    if (a.glob === undefined) {
      const over = spend(budget, [a.text]);
      if (over !== null) return `the argument ${JSON.stringify(a.text.slice(0, 60))} ${over}`;
      out.push(a.text);
      written.push(true);
      continue;
    }
    const matches = await expand(ctx, a.glob, budget);
    const words = matches.length === 0 ? [a.text] : matches;
    const hit = matches.find(protectedPath);
    if (hit !== undefined)
      return `the pattern ${JSON.stringify(a.text)} matches ${JSON.stringify(hit)}, inside .git/ or .slmcode/, which ws_shell does not touch; name the files you mean`;
    const over = spend(budget, words);
    if (over !== null) throw new GlobRefused(a.glob, over);
    out.push(...words);
    for (const _ of words) written.push(false);
  }
  return out;
}

async function stdinOf(ctx: PlanContext, input: PlanInput): Promise<ExecStage['stdin'] | { readonly why: string }> {
  switch (input.kind) {
    case 'pipe':
    case 'empty':
      return input.kind;
    case 'text':
      return new TextEncoder().encode(input.text);
    case 'file': {
      const r = await ctx.resolve(input.path, 'read');
      if (!r.ok) return { why: r.text };
      const st = await ctx.ws.lstat(r.path);
      if (st === null) return { why: `${input.path}: No such file or directory` };
      if (st.type === 'dir') return { why: `${input.path}: Is a directory` };
      if (st.size > MAX_STDIN_BYTES)
        return {
          why: `${input.path} is ${st.size} bytes, over the ${MAX_STDIN_BYTES}-byte limit for input redirection; pass the file name to the command instead`,
        };
      return ctx.ws.readFile(r.path);
    }
  }
}

/**
 * The backend's plan for `plan`: every pattern expanded, every input file read. The arguments of
 * all stages together stay within MAX_EXPANDED_ARGS and MAX_EXPANDED_BYTES, and expansion stops
 * once `deadline` (a Date.now() value: the call's own timeout) has passed.
 */
export async function resolvePlan(ctx: PlanContext, plan: ShellPlan, deadline = Infinity): Promise<Resolved> {
  const stages: ExecStage[] = [];
  const written: boolean[][] = [];
  const budget: Budget = { args: 0, bytes: 0, deadline };
  try {
    for (const s of plan.stages) {
      const words: boolean[] = [];
      written.push(words);
      const argv = await expandArgs(ctx, s.args, budget, words);
      if (typeof argv === 'string') return { ok: false, why: argv, exitCode: 2 };
      const stdin = await stdinOf(ctx, s.stdin);
      if (typeof stdin === 'object' && 'why' in stdin) return { ok: false, why: stdin.why, exitCode: 1 };
      stages.push({
        argv,
        ...(Object.keys(s.env).length ? { env: s.env } : {}),
        stdin,
        stdout: s.stdout,
        stderr: s.stderr,
      });
    }
  } catch (e) {
    if (e instanceof GlobRefused)
      return { ok: false, why: `the pattern ${JSON.stringify(e.pattern)} ${e.why}`, exitCode: e.exitCode };
    throw e;
  }
  return { ok: true, plan: { stages }, written };
}
