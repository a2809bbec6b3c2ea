/**
 * The Python-true post-edit check: CPython's own `compile()` judges a `.py` text, in whatever
 * Python the workspace runs (this machine's python3 inside the host sandbox, or the tab's
 * Pyodide once it is loaded). The text goes in on stdin, the verdict comes back as one JSON
 * line, so no file is written and the edit's "before" text can be judged as well as its "after".
 *
 * It stands in for `checkSyntax` (post-edit.ts takes any SyntaxChecker): other file types, and
 * a `.py` text that Python could not judge (no JSON answer, a crash), go to the fallback. Where
 * the workspace runs Python but has not loaded it yet (the tab before its first `python3`), the
 * fallback's verdict is named as the hand rules it is, so the note says which parser judged.
 *
 * Bounds: the same size limit as every check; the compile is timed inside Python against the
 * check's budget (starting the interpreter is its loading time, as for `node --check`); the
 * process itself ends at PROCESS_TIMEOUT_MS. Where Python starts in a fresh worker per job (the
 * tab), a worker already starting it is waited for first (up to WARM_WAIT_MS): on a slow or busy
 * machine that start alone can pass PROCESS_TIMEOUT_MS, and the edit would go unjudged. `-I` (isolated) keeps the workspace's own files off
 * sys.path, so a `json.py` there cannot stand in for the standard library's.
 */
import type { Workspace } from '../workspace.ts';
import { encodeText } from '../text.ts';
import type { SyntaxChecker } from './post-edit.ts';
import {
  DEFAULT_SYNTAX_BUDGET_MS,
  errorAt,
  okVerdict,
  overBudget,
  overSizeLimit,
  skippedVerdict,
  type CheckOptions,
  type SyntaxVerdict,
} from './verdict.ts';

/** The checker's name in verdicts and revert messages. */
export const CPYTHON_CHECKER = 'CPython compile()';

/** What the fallback's checker is called before Python is loaded. */
export const BEFORE_PYTHON = 'hand rules: Python is not loaded yet';

/** How long starting the interpreter and compiling may take in all before no verdict is given. */
export const PROCESS_TIMEOUT_MS = 15_000;

/** How long the check waits for a worker already starting Python before its own bound starts. */
export const WARM_WAIT_MS = 120_000;

/** Reads the source on stdin, compiles it as `sys.argv[1]`, prints one JSON line. */
export const COMPILE_SCRIPT = [
  'import json, sys, time',
  'src = sys.stdin.buffer.read().decode("utf-8", "surrogateescape")',
  't = time.perf_counter()',
  'try:',
  '    compile(src, sys.argv[1], "exec", dont_inherit=True)',
  '    r = {"ok": True}',
  'except (SyntaxError, ValueError) as e:',
  '    r = {"ok": False, "type": type(e).__name__, "msg": getattr(e, "msg", None) or str(e),',
  '         "line": getattr(e, "lineno", None) or 1, "col": getattr(e, "offset", None) or 1}',
  'except (RecursionError, MemoryError) as e:',
  '    r = {"skip": type(e).__name__}',
  'r["ms"] = (time.perf_counter() - t) * 1000',
  'print("\\n@@compile " + json.dumps(r))',
].join('\n');

interface Answer {
  readonly ok?: boolean;
  readonly type?: string;
  readonly msg?: string;
  readonly line?: number;
  readonly col?: number;
  readonly skip?: string;
  readonly ms?: number;
}

/** Python's answer as a verdict; null when the output holds none (Python did not run). */
export function compileVerdict(output: string, budgetMs: number): SyntaxVerdict | null {
  const line = output.split('\n').findLast((l) => l.startsWith('@@compile '));
  if (!line) return null;
  let a: Answer;
  try {
    a = JSON.parse(line.slice('@@compile '.length)) as Answer;
  } catch {
    return null;
  }
  if (typeof a.ms === 'number' && a.ms > budgetMs) return overBudget(CPYTHON_CHECKER, a.ms, budgetMs);
  if (a.skip)
    return {
      ...skippedVerdict(CPYTHON_CHECKER, `the compiler gave up (${a.skip}: nesting too deep); not judged`),
      bound: 'depth',
    };
  if (a.ok) return okVerdict(CPYTHON_CHECKER);
  return errorAt(CPYTHON_CHECKER, a.line ?? 1, a.col ?? 1, `${a.type ?? 'SyntaxError'}: ${a.msg ?? 'invalid syntax'}`);
}

/** Waits for `warm`, or `ms`, whichever comes first. */
async function warmWithin(warm: Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([warm, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/** A checker that asks the workspace's Python about `.py` texts (see the file comment); `fallback` judges the rest. */
export function createPythonCompileCheck(ws: Workspace, fallback: SyntaxChecker): SyntaxChecker {
  return async (path: string, text: string, opts: CheckOptions = {}): Promise<SyntaxVerdict | null> => {
    if (!/\.py$/i.test(path)) return fallback(path, text, opts);
    const state = ws.pythonState?.() ?? 'none';
    if (state !== 'ready') {
      const v = await fallback(path, text, opts);
      return v && state === 'not-loaded' ? { ...v, checker: `${v.checker}; ${BEFORE_PYTHON}` } : v;
    }
    const tooBig = overSizeLimit(CPYTHON_CHECKER, text);
    if (tooBig) return tooBig;
    const budgetMs = opts.budgetMs ?? DEFAULT_SYNTAX_BUDGET_MS;
    if (ws.pythonWarm) await warmWithin(ws.pythonWarm(), WARM_WAIT_MS);
    const run = await ws.exec(
      {
        stages: [
          {
            argv: ['python3', '-I', '-c', COMPILE_SCRIPT, path],
            stdin: encodeText(text),
            stdout: 'next',
            stderr: 'output',
          },
        ],
      },
      { cwd: '', timeoutMs: PROCESS_TIMEOUT_MS, maxOutputBytes: 16 * 1024 },
    );
    if (run.timedOut)
      return {
        ...skippedVerdict(CPYTHON_CHECKER, `python3 took longer than ${PROCESS_TIMEOUT_MS} ms; not judged`),
        bound: 'time',
      };
    return compileVerdict(run.output, budgetMs) ?? fallback(path, text, opts);
  };
}
