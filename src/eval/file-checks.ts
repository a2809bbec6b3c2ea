/**
 * A task's file checks (task.ts `checks`), judged on the files a session left against the files
 * it started from: each failure is one line saying what was expected of which file.
 */
import type { EvalTask, FileCheck } from './task.ts';

type Files = Readonly<Record<string, string>>;

function failure(check: FileCheck, start: Files, finished: Files): string | null {
  const text = finished[check.path];
  switch (check.kind) {
    case 'unchanged':
      return text === start[check.path]
        ? null
        : `${check.path} must stay exactly as it was, but it ${text === undefined ? 'is gone' : 'changed'}`;
    case 'absent':
      return text === undefined ? null : `${check.path} must no longer exist`;
    case 'matches': {
      if (text === undefined) return `${check.path} is missing`;
      const found = new RegExp(check.pattern, check.flags).test(text);
      return found === check.expect
        ? null
        : `${check.path} ${check.expect ? 'must match' : 'must not match'} /${check.pattern}/${check.flags ?? ''}`;
    }
    case 'json': {
      if (text === undefined) return `${check.path} is missing`;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (e) {
        return `${check.path} is not valid JSON (${(e as Error).message})`;
      }
      const obj = (value ?? {}) as Record<string, unknown>;
      const wrong = Object.entries(check.fields).filter(([k, v]) => JSON.stringify(obj[k]) !== JSON.stringify(v));
      return wrong.length
        ? `${check.path}: ${wrong.map(([k, v]) => `"${k}" must be ${JSON.stringify(v)}, not ${JSON.stringify(obj[k])}`).join('; ')}`
        : null;
    }
  }
}

/** The failed checks of `task` on `finished`, one line each; none when all hold. */
export function failedChecks(task: EvalTask, finished: Files): string[] {
  return (task.checks ?? []).map((c) => failure(c, task.files, finished)).filter((f): f is string => f !== null);
}
