/**
 * Glob matching in time linear in the path. picomatch turns a glob into a backtracking
 * JavaScript regular expression (`[^/]*?a[^/]*?a…`): `*a*a*a*a*a*a*a*b` tried against a name of
 * sixty `a`s runs for a minute, synchronously, so no timeout can end it. Here picomatch's own
 * expression runs on RE2 (re2js) instead. The lookarounds picomatch adds only keep `*` and `**`
 * off `.`/`..` segments and empty names, which a walk of the workspace never yields, so they are
 * dropped; a pattern whose meaning needs one (a negated extglob, `!(…)`) is not taken.
 */
import picomatch from 'picomatch';
import { RE2JS } from 're2js';

/** picomatch's guards (with `dot: true`) against `.` and `..` segments, which a walk never yields. */
const GUARDS = ['(?!(?:^|\\/)\\.{1,2}(?:\\/|$))', '(?!\\.{1,2}(?:\\/|$))', '(?!\\.{0,1}(?:\\/|$))'];

/**
 * picomatch's "one more character" lookahead. Before a star that ends the pattern it makes the
 * star take at least one character (`*.*` does not match `a.`), which `+?` says without a
 * lookahead; anywhere else what follows is never empty in a walked path (no empty segment, no
 * trailing slash), so it asks nothing.
 */
const ONE_CHAR = '(?=.)';
const ONE_CHAR_LAST_STAR = `${ONE_CHAR}[^/]*?\\/?)$`;

/** Whether a path (relative, `/`-separated, as a walk gives it) matches. */
export type GlobMatcher = (path: string) => boolean;

/** A pattern that cannot be matched in linear time, with why in words for the model. */
export interface GlobRefusal {
  readonly refused: string;
}

/**
 * The matcher picomatch(`pattern`, { dot: true, basename }) would give, run on RE2. `basename`
 * matches the last segment only (ripgrep's `-g` for a glob without a slash).
 */
export function globMatcher(pattern: string, opts: { readonly basename?: boolean } = {}): GlobMatcher | GlobRefusal {
  let re: RE2JS;
  try {
    let source = picomatch.makeRe(pattern, { dot: true }).source;
    for (const g of GUARDS) source = source.split(g).join('');
    source = source.split(ONE_CHAR_LAST_STAR).join('[^/]+?\\/?)$').split(ONE_CHAR).join('');
    if (/\(\?[=!<]/.test(source)) {
      return {
        refused: `the glob ${JSON.stringify(pattern)} uses a negated group "!(…)", which is not supported here; name what to match instead (e.g. "src/**/*.ts")`,
      };
    }
    re = RE2JS.compile(source);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    return { refused: `the glob ${JSON.stringify(pattern)} cannot be used (${why}); write a simpler pattern` };
  }
  const base = opts.basename === true;
  return (path) => path === pattern || re.test(base ? path.slice(path.lastIndexOf('/') + 1) : path);
}

/** Whether `m` is a refusal rather than a matcher. */
export function isGlobRefusal(m: GlobMatcher | GlobRefusal): m is GlobRefusal {
  return typeof m !== 'function';
}
