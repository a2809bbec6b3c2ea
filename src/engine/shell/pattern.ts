/**
 * Bash's pattern matching for one path segment (`*`, `?`, `[…]` with `!`/`^`, ranges and
 * `[:class:]`, backslash escapes), as a matcher linear in the name. Bash's rules, not a glob library's: no braces,
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

/** The RegExp of one bracket expression, or null when it can match nothing (a range out of order). */
function classRegExp(re: string): RegExp | null {
  try {
    return new RegExp(`^${re}$`, 's');
  } catch {
    return null;
  }
}

/** One position of a compiled segment pattern: a character test, or a `*`. */
type Token = { readonly star: true } | { readonly star: false; readonly test: (c: string) => boolean };

const STAR: Token = { star: true };

/** The tokens of one segment pattern (no `/` in it). */
function tokens(p: string): Token[] {
  const out: Token[] = [];
  const literal = (ch: string): Token => ({ star: false, test: (c) => c === ch });
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    if (c === '\\' && i + 1 < p.length) out.push(literal(p[++i]!));
    else if (c === '*') {
      if (out.at(-1) !== STAR) out.push(STAR);
    } else if (c === '?') out.push({ star: false, test: () => true });
    else if (c === '[') {
      const b = bracket(p, i);
      if (b === null) out.push(literal('['));
      else {
        // One character class, anchored: a RegExp of a single position cannot backtrack. A range
        // written backwards ([z-a]) is empty in bash, so the class matches nothing.
        const one = classRegExp(b.re);
        out.push({ star: false, test: (ch) => one !== null && one.test(ch) });
        i = b.end;
      }
    } else out.push(literal(c));
  }
  return out;
}

/**
 * A matcher for one segment pattern (no `/` in it), anchored at both ends. Stars are matched
 * with one saved backtracking point (the last star seen), so a match costs at most
 * pattern length × name length steps, whatever the pattern: `*a*a*a*a*a*a*a*a*b` against a long
 * name of `a`s is as quick as any other.
 */
export function segmentMatcher(p: string): (name: string) => boolean {
  const t = tokens(p);
  return (s) => {
    let ti = 0;
    let si = 0;
    let starT = -1;
    let starS = 0;
    while (si < s.length) {
      const tok = t[ti];
      if (tok && !tok.star && tok.test(s[si]!)) {
        ti++;
        si++;
      } else if (tok?.star) {
        starT = ti++;
        starS = si;
      } else if (starT !== -1) {
        ti = starT + 1;
        si = ++starS;
      } else return false;
    }
    while (t[ti]?.star) ti++;
    return ti === t.length;
  };
}

/** True when the segment has an unescaped `*`, `?` or `[`. */
export function isPattern(p: string): boolean {
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '\\') i++;
    else if ('*?['.includes(p[i]!)) return true;
  }
  return false;
}

/**
 * Whether bash takes `text` for a pattern when it joins the path before it (its
 * glob_pattern_p): an unescaped `*` or `?`, or a `[` with a `]` anywhere after it, a slash
 * between them too. An unclosed `[` is no pattern here.
 */
export function bashSeesPattern(text: string): boolean {
  let open = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === '*' || c === '?') return true;
    else if (c === '[') open = true;
    else if (c === ']' && open) return true;
  }
  return false;
}

/**
 * True when a bracket expression of `p` may hold a collating symbol or an equivalence class
 * (`[.x.]`, `[=x=]`): an unescaped `[.` or `[=` after an unescaped `[`. Bash reads those by its
 * locale's collation; the runner does not expand them, so it cannot differ from bash.
 */
export function usesCollation(p: string): boolean {
  let open = false;
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '\\') i++;
    else if (p[i] === '[') {
      if (open && (p[i + 1] === '.' || p[i + 1] === '=')) return true;
      open = true;
    }
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
