/**
 * The JSON checker: a small validating scanner instead of `JSON.parse`, because the parse
 * error texts of `JSON.parse` differ between JavaScript engines (and between Node and Chrome
 * versions), and a recorded session must replay to the same result text on either. It also
 * knows the one dialect real repositories mix in: JSONC (comments and trailing commas), read
 * by TypeScript, VS Code and friends.
 *
 * Dialect rule: a file named like a JSONC file (see `isJsoncPath`) and any `.json` file that
 * contains a comment is judged as JSONC — a comment means its reader accepts comments, and
 * every such reader also accepts trailing commas. Any other `.json` file is strict JSON, where
 * a trailing comma (the most common slip when removing a last item) is an error.
 */
import { errorAt, lineColAt, okVerdict, type SyntaxVerdict } from './verdict.ts';

interface ScanError {
  readonly offset: number;
  readonly text: string;
}

interface ScanResult {
  /** The first hard error: something no JSON dialect accepts. */
  readonly error: ScanError | null;
  /** Offset of the first comment, or -1. */
  readonly firstComment: number;
  /** Offset of the first trailing comma, or -1. */
  readonly firstTrailingComma: number;
  /** True when the text holds no value at all (only whitespace and comments). */
  readonly empty: boolean;
}

/** Names whose readers accept comments and trailing commas even when the file has none yet. */
export function isJsoncPath(path: string): boolean {
  const base = path.slice(path.lastIndexOf('/') + 1);
  return (
    base.endsWith('.jsonc') ||
    /^[tj]sconfig(\..+)?\.json$/.test(base) ||
    base === 'devcontainer.json' ||
    base === '.devcontainer.json' ||
    /(^|\/)\.vscode\/[^/]+\.json$/.test(path)
  );
}

/** Judges `text` as JSON, or as JSONC when `jsonc` is set or the text contains a comment. */
export function checkJson(text: string, jsonc: boolean): SyntaxVerdict {
  const scan = scanJson(text);
  const lenient = jsonc || scan.firstComment >= 0;
  const checker = lenient ? 'jsonc' : 'json';
  let err = scan.error;
  if (!lenient && scan.firstTrailingComma >= 0 && (!err || scan.firstTrailingComma < err.offset)) {
    err = {
      offset: scan.firstTrailingComma,
      text: "trailing comma — JSON allows none; remove the ',' before the closing bracket",
    };
  }
  // An empty JSONC file (or one holding only comments) is read as "no settings", not an error.
  if (!err || (lenient && scan.empty)) return okVerdict(checker);
  const { line, col } = lineColAt(text, err.offset);
  return errorAt(checker, line, col, err.text);
}

type State = 'value' | 'key' | 'colon' | 'after';

/**
 * One pass over the text with an explicit stack (deeply nested files must not overflow the
 * call stack). Comments and trailing commas are accepted and recorded; the caller decides.
 */
function scanJson(text: string): ScanResult {
  const stack: string[] = [];
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0; // a BOM is not content
  let state: State = 'value';
  // The token before the current one, to tell `[]`/`{}` and trailing commas from errors.
  let prev: 'open' | 'comma' | 'other' = 'other';
  let firstComment = -1;
  let firstTrailingComma = -1;
  let commaAt = -1;
  const done = (error: ScanError | null, empty = false): ScanResult => ({
    error,
    firstComment,
    firstTrailingComma,
    empty,
  });

  for (;;) {
    // Whitespace and comments.
    for (;;) {
      const c = text[pos];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r') pos++;
      else if (c === '/' && text[pos + 1] === '/') {
        if (firstComment < 0) firstComment = pos;
        const nl = text.indexOf('\n', pos);
        pos = nl < 0 ? text.length : nl;
      } else if (c === '/' && text[pos + 1] === '*') {
        if (firstComment < 0) firstComment = pos;
        const close = text.indexOf('*/', pos + 2);
        if (close < 0) return done({ offset: pos, text: 'unterminated /* comment — add the closing */' });
        pos = close + 2;
      } else break;
    }
    const c = text[pos];
    const top = stack[stack.length - 1];
    if (state === 'after') {
      if (top === undefined) {
        return done(
          c === undefined ? null : { offset: pos, text: `unexpected ${describe(c)} after the end of the JSON value` },
        );
      }
      const close = top === '{' ? '}' : ']';
      if (c === ',') {
        commaAt = pos++;
        prev = 'comma';
        state = top === '{' ? 'key' : 'value';
      } else if (c === close) {
        pos++;
        stack.pop();
      } else {
        const what = top === '{' ? 'a property value' : 'an array element';
        return done({ offset: pos, text: `expected ',' or '${close}' after ${what}, found ${describe(c)}` });
      }
      continue;
    }
    if (state === 'colon') {
      if (c !== ':') return done({ offset: pos, text: `expected ':' after a property name, found ${describe(c)}` });
      pos++;
      state = 'value';
      continue;
    }
    // A closer right after an opener is an empty container; right after a comma, a trailing comma.
    const closer: string = state === 'key' ? '}' : ']';
    if (prev !== 'other' && c === closer) {
      if (prev === 'comma' && firstTrailingComma < 0) firstTrailingComma = commaAt;
      pos++;
      stack.pop();
      prev = 'other';
      state = 'after';
      continue;
    }
    prev = 'other';
    if (state === 'key') {
      if (c !== '"') return done({ offset: pos, text: `expected a double-quoted property name, found ${describe(c)}` });
      const end = scanString(text, pos);
      if (typeof end !== 'number') return done(end);
      pos = end;
      state = 'colon';
      continue;
    }
    // state === 'value'
    if (c === undefined && top === undefined)
      return done({ offset: pos, text: 'no JSON value — the file is empty' }, true);
    if (c === '{' || c === '[') {
      stack.push(c);
      pos++;
      prev = 'open';
      state = c === '{' ? 'key' : 'value';
      continue;
    }
    const end = c === '"' ? scanString(text, pos) : scanScalar(text, pos);
    if (typeof end !== 'number') return done(end);
    pos = end;
    state = 'after';
  }
}

/** Scans a string starting at its opening quote; returns the offset after the closing quote. */
function scanString(text: string, start: number): number | ScanError {
  for (let i = start + 1; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 0x22) return i + 1;
    if (ch === 0x0a) return { offset: start, text: 'unterminated string — a string must close on the line it opens' };
    if (ch < 0x20) return { offset: i, text: 'control character in a string — escape it (\\t, \\n, \\u0000)' };
    if (ch === 0x5c) {
      const e = text[i + 1];
      if (e === 'u') {
        if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6)))
          return { offset: i, text: 'bad \\u escape — it needs 4 hex digits' };
        i += 5;
      } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i++;
      else return { offset: i, text: `bad escape \\${e ?? ''} — JSON allows \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX` };
    }
  }
  return { offset: start, text: 'unterminated string — add the closing "' };
}

const NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/;

/** Scans a number or true/false/null; returns the offset after it. */
function scanScalar(text: string, start: number): number | ScanError {
  const c = text[start];
  if (c === undefined) return { offset: start, text: 'unexpected end of input, expected a value' };
  for (const lit of ['true', 'false', 'null']) {
    if (text.startsWith(lit, start)) return start + lit.length;
  }
  if (c === '-' || (c >= '0' && c <= '9')) {
    const m = NUMBER.exec(text.slice(start, start + 400));
    if (m && m[0] !== '-') {
      const next = text[start + m[0].length];
      if (next === undefined || !/[0-9.eE+\-]/.test(next)) return start + m[0].length;
    }
    return { offset: start, text: 'malformed number' };
  }
  return { offset: start, text: `unexpected ${describe(c)}, expected a value` };
}

function describe(c: string | undefined): string {
  if (c === undefined) return 'end of input';
  if (c === "'") return "' (JSON strings need double quotes)";
  return JSON.stringify(c);
}
