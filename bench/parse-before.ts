/**
 * The bench's baseline: the tool-call parser as it was before it read native formats (JSON
 * envelopes only: bare, fenced, Hermes tags, name/arguments shapes), kept verbatim so
 * `npm run bench` can print the corpus figure beside the current parser's.
 */
import { matchObject, parseLenient, parseUnclosed, type JsonRepair } from '../src/agent/json-scan.ts';

export interface ParsedCall {
  readonly tool: string;
  /** Usually an object; anything else is passed on so the engine can say the arguments must be an object. */
  readonly args: unknown;
  readonly thought?: string;
}

/** How the call was found: JSON repairs plus the wrapping the parser looked through. */
export type ParseRepair = JsonRepair | 'think' | 'fence' | 'tool-call-tag' | 'prose' | 'name-arguments' | 'function-wrapper' | 'args-string' | 'flat-args';

export type ParseErrorKind = 'no-call' | 'truncated' | 'invalid-json' | 'no-tool-name';

export type ParseOutcome =
  | {
      readonly ok: true;
      readonly call: ParsedCall;
      /** The message cut to its first call: what the history keeps as the assistant turn. */
      readonly kept: string;
      /** Tool names of the further calls that were dropped, in order. */
      readonly dropped: readonly string[];
      readonly repairs: readonly ParseRepair[];
    }
  | { readonly ok: false; readonly error: ParseErrorKind; readonly message: string };

/** The canonical shapes, quoted in retry messages and the system prompt. */
export const CANONICAL_CALL = '{"tool": "ws_read", "args": {"path": "src/index.js"}}';
export const CANONICAL_DONE = '{"tool": "done", "args": {"summary": "what you changed and how you checked it"}}';

export interface ParseOptions {
  /** Known tool names; a bare `{"name": X}` object counts as a call only when X is one of them. */
  readonly tools?: readonly string[];
}

/** Parses the first tool call in `raw`. Never throws. */
export function parseCall(raw: string, opts: ParseOptions = {}): ParseOutcome {
  const known = new Set([...(opts.tools ?? []), 'done']);
  const calls: { call: ParsedCall; start: number; end: number; repairs: ParseRepair[] }[] = [];
  let truncated = false;
  let badJson: { error: string; snippet: string } | undefined;
  let shapeless: string[] | undefined;

  // Reasoning models (Qwen3) think in <think>…</think> first; a call sketched there is not the call.
  const from = afterThinking(raw);
  for (let i = raw.indexOf('{', from); i >= 0; i = raw.indexOf('{', i + 1)) {
    const span = matchObject(raw, i);
    const parsed = span.closed ? parseLenient(raw.slice(span.start, span.end)) : parseUnclosed(raw, span);
    if (!parsed.ok) {
      if (!span.closed) truncated = true;
      else if (!badJson && /["'](tool|name|args|arguments)["']/.test(raw.slice(span.start, span.end))) {
        badJson = { error: parsed.error, snippet: raw.slice(span.start, Math.min(span.end, span.start + 80)) };
      }
      continue; // try the next `{`: a call may sit inside a span that failed
    }
    const shaped = toCall(parsed.value, known);
    if (shaped) {
      calls.push({ call: shaped.call, start: span.start, end: span.end, repairs: [...parsed.repairs, ...shaped.repairs] });
      i = span.end - 1; // continue after this call, not inside it
    } else if (parsed.value && typeof parsed.value === 'object' && !Array.isArray(parsed.value)) {
      shapeless ??= Object.keys(parsed.value);
      i = span.end - 1;
    }
  }

  const first = calls[0];
  if (first) {
    const end = keepEnd(raw, first.end);
    const kept = raw.slice(0, end);
    const repairs = [...first.repairs, ...(from > 0 ? ['think' as const] : []), ...wrapping(raw, from, first.start, end)];
    return { ok: true, call: first.call, kept, dropped: calls.slice(1).map((c) => c.call.tool), repairs };
  }
  if (truncated) return { ok: false, error: 'truncated', message: TRUNCATED };
  if (badJson) return { ok: false, error: 'invalid-json', message: invalidJson(badJson.error, badJson.snippet) };
  if (shapeless) return { ok: false, error: 'no-tool-name', message: noToolName(shapeless) };
  return { ok: false, error: 'no-call', message: NO_CALL };
}

/** The text the loop appends to a result when further calls were dropped. */
export function droppedCallsText(dropped: readonly string[]): string {
  const n = dropped.length;
  const doneNote = dropped.includes('done') ? ' Your done was dropped too: send it again once you have seen this result.' : '';
  return (
    `[one tool call per turn — only your first call was run; ${n} more call${n === 1 ? ' was' : 's were'} dropped (${dropped.join(', ')}). ` +
    `Send the next call after reading this result.${doneNote}]`
  );
}

const NO_CALL =
  'Your reply contained no tool call, so nothing was run. Reply with exactly one JSON object and nothing else, for example:\n' +
  `${CANONICAL_CALL}\n` +
  'A run ends only with the final JSON — when the task is complete, reply with:\n' +
  CANONICAL_DONE;

const TRUNCATED =
  'Your reply was cut off inside a JSON object (it never closed), so nothing was run. Send the call again, complete, as one JSON object:\n' +
  `${CANONICAL_CALL}\n` +
  'If the call is long, make it smaller: change one span with ws_edit instead of rewriting a whole file with ws_write.';

function invalidJson(error: string, snippet: string): string {
  return (
    `Your reply had a JSON object that could not be parsed (${error}) near: ${snippet}\n` +
    'Nothing was run. Send exactly one valid JSON object, for example:\n' +
    `${CANONICAL_CALL}\n` +
    'Double-quote every key and string; inside strings write a newline as \\n, a quote as \\" and a backslash as \\\\.'
  );
}

function noToolName(keys: readonly string[]): string {
  return (
    `Your JSON object has no "tool" key (its keys: ${keys.join(', ') || 'none'}), so nothing was run. Name the tool and put its arguments under "args":\n` +
    `${CANONICAL_CALL}\n` +
    `When the task is complete: ${CANONICAL_DONE}`
  );
}

const ARG_KEYS = ['args', 'arguments', 'parameters', 'input', 'action_input'] as const;
const NAME_KEYS = ['tool', 'tool_name', 'action'] as const;

/** Recognises the call shapes; null when the object is not a call. */
function toCall(value: unknown, known: ReadonlySet<string>): { call: ParsedCall; repairs: ParseRepair[] } | null {
  if (!isRecord(value)) return null;
  const repairs: ParseRepair[] = [];
  let obj = value;
  // OpenAI's tool_calls entry: {"type": "function", "function": {"name", "arguments": "<json>"}}.
  if (isRecord(obj.function) && typeof obj.function.name === 'string') {
    obj = { ...obj.function, thought: obj.thought };
    repairs.push('function-wrapper');
  }
  let tool = NAME_KEYS.map((k) => obj[k]).find((v): v is string => typeof v === 'string');
  const hasArgKey = ARG_KEYS.some((k) => k in obj);
  if (tool === undefined && typeof obj.name === 'string' && (hasArgKey || known.has(obj.name))) {
    tool = obj.name;
    repairs.push('name-arguments');
  }
  if (tool === undefined) return null;

  const argKey = ARG_KEYS.find((k) => k in obj);
  let args: unknown;
  if (argKey) {
    args = obj[argKey];
    if (typeof args === 'string') {
      const inner = parseLenient(args);
      if (inner.ok) {
        args = inner.value;
        repairs.push('args-string');
      }
    }
  } else {
    // {"tool": "ws_read", "path": "a.js"}: the arguments sit beside the name.
    const skip = new Set<string>([...NAME_KEYS, 'name', 'thought', 'type']);
    args = Object.fromEntries(Object.entries(obj).filter(([k]) => !skip.has(k)));
    if (Object.keys(args as object).length) repairs.push('flat-args');
  }
  const thought = typeof obj.thought === 'string' ? obj.thought : undefined;
  const call: ParsedCall = { tool: tool.trim(), args: args ?? {}, ...(thought !== undefined && { thought }) };
  return { call, repairs };
}

/** Extends the kept text over a closing fence or `</tool_call>` right after the call. */
function keepEnd(raw: string, end: number): number {
  const m = /^\s*(```|<\/tool_call>)/.exec(raw.slice(end));
  return m ? end + m[0].length : end;
}

/** Where the reply proper begins: after the last `</think>`; the end of the text when thinking never closed. */
function afterThinking(raw: string): number {
  const close = raw.lastIndexOf('</think>');
  if (close >= 0) return close + '</think>'.length;
  return /^\s*<think>/.test(raw) ? raw.length : 0;
}

/** Names the wrapping around the call: a fence, tags, or prose the model added. */
function wrapping(raw: string, from: number, start: number, end: number): ParseRepair[] {
  const before = raw.slice(from, start);
  const after = raw.slice(end);
  const out: ParseRepair[] = [];
  if (/```[a-z]*\s*$/i.test(before)) out.push('fence');
  if (/<tool_call>\s*$/.test(before)) out.push('tool-call-tag');
  const prose = (before + after).replace(/```[a-z]*|<\/?tool_call>/gi, '').trim();
  if (prose) out.push('prose');
  return out;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
