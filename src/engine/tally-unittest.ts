/**
 * Python's unittest in the test tally: its summary is `Ran N tests in Ts` (the time dropped where
 * ws_test shows it, exec-output.ts) followed by `OK`,
 * `OK (skipped=S, expected failures=X)` or `FAILED (failures=F, errors=E, skipped=S,
 * unexpected successes=U)` (or `NO TESTS RAN`), and each failing test is reported as
 * `FAIL: test_name (module.Class.test_name)` or `ERROR: …` over a traceback.
 */

type Counts = { passed: number; failed: number };

/** The last unittest summary in `text`: failures, errors and unexpected successes fail; skipped and expected failures neither pass nor fail. */
export function unittestCounts(text: string): Counts | null {
  const all = [
    ...text.matchAll(
      /^Ran (\d+) tests?(?: in [\d.]+s)?\s*\n\s*\n?(OK|FAILED|NO TESTS RAN)(?: \(([^)\n]*)\))?[ \t]*$/gm,
    ),
  ];
  const m = all[all.length - 1];
  if (!m) return null;
  const ran = Number(m[1]);
  const parts = new Map<string, number>();
  for (const part of (m[3] ?? '').split(',')) {
    const kv = /^\s*([a-z ]+)=(\d+)\s*$/.exec(part);
    if (kv) parts.set(kv[1]!, Number(kv[2]));
  }
  const n = (key: string) => parts.get(key) ?? 0;
  const failed = n('failures') + n('errors') + n('unexpected successes');
  const notRun = n('skipped') + n('expected failures');
  return { passed: Math.max(0, ran - failed - notRun), failed };
}

/** A separator unittest prints around each failure's report. */
const RULE = /^(?:=+|-+)$/;

/**
 * A unittest `FAIL:`/`ERROR:` header at line `i`: the test's dotted name (Python 3.11+ prints
 * it whole in the parentheses; older ones print the class, so the method is added), and the
 * exception lines at the end of its traceback.
 */
export function unittestFailure(
  lines: readonly string[],
  i: number,
): { readonly name: string; readonly detail: readonly string[] } | null {
  const m = /^(?:FAIL|ERROR): (\S+) \(([\w.]+)\)/.exec(lines[i]!);
  if (!m || !RULE.test(lines[i + 1] ?? '')) return null;
  const [, method, where] = m as unknown as [string, string, string];
  const name = where.endsWith(`.${method}`) ? where : `${where}.${method}`;
  const detail: string[] = [];
  for (let j = i + 2; j < lines.length && !RULE.test(lines[j]!); j++) {
    const l = lines[j]!;
    if (l.trim() === '' || /^\s/.test(l) || /^Traceback \(most recent call last\):$/.test(l)) continue;
    detail.push(l.trim());
  }
  return { name, detail: detail.slice(-6) };
}
