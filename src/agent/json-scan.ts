/**
 * Finding JSON objects in a model's free text and reading them leniently. Small models wrap
 * their call in prose, fences or tags, put raw newlines inside strings, leave trailing commas,
 * write `\d` in a regex without doubling the backslash, or forget the last brace. Each of
 * those is repaired here, and every repair is named so the inspector can show it.
 */

/** A `{ … }` span found in the text. `closed: false` means the text ended inside it. */
export interface ObjectSpan {
  readonly start: number;
  /** Exclusive end; the end of the text when the object never closed. */
  readonly end: number;
  readonly closed: boolean;
  /** For an unclosed span: true when the text ended inside a string (a real cut-off, not a forgotten brace). */
  readonly endedInString: boolean;
  /** Closing brackets an unclosed span lacks, innermost first (e.g. `}]}`). */
  readonly missing: string;
}

export type JsonRepair = 'raw-control-char' | 'trailing-comma' | 'python-literal' | 'bad-escape' | 'closed-braces';

export type LenientParse =
  | { readonly ok: true; readonly value: unknown; readonly repairs: readonly JsonRepair[] }
  | { readonly ok: false; readonly error: string };

/** Matches the `{` at `start` to its closing brace, honouring JSON strings. */
export function matchObject(text: string, start: number): ObjectSpan {
  const stack: string[] = [];
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{') stack.push('}');
    else if (c === '[') stack.push(']');
    else if (c === '}' || c === ']') {
      // A mismatched closer means this was not JSON after all; end the span here so the
      // caller can try the next `{`.
      if (stack.pop() !== c) return { start, end: i + 1, closed: true, endedInString: false, missing: '' };
      if (stack.length === 0) return { start, end: i + 1, closed: true, endedInString: false, missing: '' };
    }
  }
  return { start, end: text.length, closed: false, endedInString: inString, missing: stack.reverse().join('') };
}

/** Parses JSON, and when that fails, once more after the repairs small models need. */
export function parseLenient(text: string): LenientParse {
  try {
    return { ok: true, value: JSON.parse(text), repairs: [] };
  } catch (first) {
    const { text: fixed, repairs } = repairJson(text);
    if (repairs.length === 0) return { ok: false, error: errorText(first) };
    try {
      return { ok: true, value: JSON.parse(fixed), repairs };
    } catch {
      // Report the error of the text as the model wrote it: that is the one it can fix.
      return { ok: false, error: errorText(first) };
    }
  }
}

/** Parses an object that never closed by appending the brackets it lacks (only when the text did not end inside a string). */
export function parseUnclosed(text: string, span: ObjectSpan): LenientParse {
  if (span.closed || span.endedInString) return { ok: false, error: 'the JSON object was cut off' };
  const parsed = parseLenient(text.slice(span.start, span.end).trimEnd() + span.missing);
  return parsed.ok ? { ...parsed, repairs: [...parsed.repairs, 'closed-braces'] } : parsed;
}

const VALID_ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't', 'u']);
const CONTROL_ESCAPES: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
const PY_LITERALS: Readonly<Record<string, string>> = { True: 'true', False: 'false', None: 'null' };

/** One pass over the text tracking string state; each fix is recorded once. */
function repairJson(text: string): { text: string; repairs: JsonRepair[] } {
  const found = new Set<JsonRepair>();
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      if (c === '\\') {
        const next = text[i + 1];
        if (next !== undefined && VALID_ESCAPES.has(next)) {
          out += c + next;
          i++;
        } else {
          out += '\\\\';
          found.add('bad-escape');
        }
      } else if (c === '"') {
        inString = false;
        out += c;
      } else if (CONTROL_ESCAPES[c]) {
        out += CONTROL_ESCAPES[c];
        found.add('raw-control-char');
      } else out += c;
      continue;
    }
    if (c === '"') {
      inString = true;
      out += c;
    } else if (c === ',' && /^\s*[}\]]/.test(text.slice(i + 1, i + 64))) {
      found.add('trailing-comma');
    } else if (/[A-Z]/.test(c) && !/[\w$]/.test(text[i - 1] ?? '')) {
      const word = /^[A-Za-z]+/.exec(text.slice(i))![0];
      const literal = PY_LITERALS[word];
      if (literal) found.add('python-literal');
      out += literal ?? word;
      i += word.length - 1;
    } else out += c;
  }
  return { text: out, repairs: [...found] };
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
