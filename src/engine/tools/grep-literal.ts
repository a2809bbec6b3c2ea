/**
 * The longest literal that every match of an RE2 pattern must contain, found without a full
 * parse (as ripgrep's prefilter does): a file without it cannot match, so ws_grep skips the
 * regex for that file. Conservative: only characters outside groups and classes count, anything
 * with a meaning of its own ends the current run of literal characters, a repeat drops the
 * character before it, and alternation, inline flags and escapes other than `\d \w \s \b` (and
 * their negations) give up (null). Only for case-sensitive searches.
 */

/** Characters with a meaning of their own in RE2 outside a class. */
const META = new Set(['.', '(', ')', '[', ']', '{', '}', '*', '+', '?', '|', '^', '$']);
/** Escapes that match a class or a position, never a literal the run could keep. */
const CLASS_ESCAPES = new Set(['d', 'D', 'w', 'W', 's', 'S', 'b', 'B']);

export function requiredLiteral(pattern: string): string | null {
  if (pattern.includes('|') || pattern.includes('(?')) return null;
  const chars = Array.from(pattern);
  let best = '';
  let run: string[] = [];
  let depth = 0;
  const end = (): void => {
    const text = run.join('');
    if (text.length > best.length) best = text;
    run = [];
  };
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === '\\') {
      const next = chars[++i];
      if (next === undefined || (/[0-9A-Za-z]/.test(next) && !CLASS_ESCAPES.has(next))) return null;
      if (CLASS_ESCAPES.has(next)) end();
      else if (depth === 0) run.push(next);
    } else if (c === '[') {
      end();
      // Skip the class: a leading `]` (after an optional `^`) and escaped characters belong to it.
      let j = i + 1;
      if (chars[j] === '^') j++;
      if (chars[j] === ']') j++;
      while (j < chars.length && chars[j] !== ']') j += chars[j] === '\\' ? 2 : 1;
      i = j;
    } else if (c === '*' || c === '?' || c === '{') {
      // The character before may occur zero times; a counted repeat is skipped whole.
      if (depth === 0) run.pop();
      end();
      if (c === '{') while (i < chars.length && chars[i] !== '}') i++;
    } else if (META.has(c)) {
      end();
      if (c === '(') depth++;
      if (c === ')') depth = Math.max(0, depth - 1);
    } else if (depth === 0) {
      run.push(c);
    }
  }
  end();
  return best === '' || best.includes('\n') || best.includes('\r') ? null : best;
}
