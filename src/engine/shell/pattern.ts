/**
 * Bash's pattern matching for one path segment (`*`, `?`, `[…]` with `!`/`^`, ranges and
 * `[:class:]`, backslash escapes), as a RegExp. Bash's rules, not a glob library's: no braces,
 * no extglob, an unclosed `[` is a literal `[`. Used to expand the plan's patterns the way bash
 * would, so the runner needs no shell.
 */

const CLASSES: Readonly<Record<string, string>> = {
  alnum: 'A-Za-z0-9',
  alpha: 'A-Za-z',
  blank: ' \\t',
  cntrl: '\\x00-\\x1f\\x7f',
  digit: '0-9',
  graph: '!-~',
  lower: 'a-z',
  print: ' -~',
  punct: '!-\\/:-@\\[-`{-~',
  space: ' \\t\\n\\r\\f\\v',
  upper: 'A-Z',
  word: 'A-Za-z0-9_',
  xdigit: '0-9A-Fa-f',
};

function escapeRe(c: string): string {
  return /[\\^$.*+?()[\]{}|/-]/.test(c) ? `\\${c}` : c;
}

/** Reads a bracket expression starting at `open` (`[`); null when it never closes. */
function bracket(p: string, open: number): { re: string; end: number } | null {
  let i = open + 1;
  let negate = false;
  if (p[i] === '!' || p[i] === '^') {
    negate = true;
    i++;
  }
  let body = '';
  let first = true;
  while (i < p.length) {
    const c = p[i]!;
    if (c === ']' && !first) return { re: `[${negate ? '^' : ''}${body}]`, end: i };
    first = false;
    if (c === '[' && p[i + 1] === ':') {
      const close = p.indexOf(':]', i + 2);
      const cls = close === -1 ? undefined : CLASSES[p.slice(i + 2, close)];
      if (cls !== undefined) {
        body += cls;
        i = close + 2;
        continue;
      }
    }
    if (c === '\\' && i + 1 < p.length) {
      body += escapeRe(p[i + 1]!);
      i += 2;
      continue;
    }
    if (c === '-' && body !== '' && p[i + 1] !== ']' && i + 1 < p.length) {
      body += '-';
      i++;
      continue;
    }
    body += escapeRe(c);
    i++;
  }
  return null;
}

/** The RegExp for one segment pattern (no `/` in it), anchored at both ends. */
export function segmentRegExp(p: string): RegExp {
  let re = '';
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    if (c === '\\' && i + 1 < p.length) re += escapeRe(p[++i]!);
    else if (c === '*') re += '.*';
    else if (c === '?') re += '.';
    else if (c === '[') {
      const b = bracket(p, i);
      if (b === null) re += '\\[';
      else {
        re += b.re;
        i = b.end;
      }
    } else re += escapeRe(c);
  }
  return new RegExp(`^${re}$`, 's');
}

/** True when the segment has an unescaped `*`, `?` or `[`. */
export function isPattern(p: string): boolean {
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '\\') i++;
    else if ('*?['.includes(p[i]!)) return true;
  }
  return false;
}

/** The segment with its backslash escapes removed (a segment that is no pattern). */
export function unescape(p: string): string {
  return p.replace(/\\(.)/gs, '$1');
}

/** Splits a pattern at its unescaped `/`. */
export function splitSegments(p: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '\\' && i + 1 < p.length) {
      cur += p[i]! + p[i + 1]!;
      i++;
    } else if (p[i] === '/') {
      out.push(cur);
      cur = '';
    } else cur += p[i]!;
  }
  out.push(cur);
  return out;
}
