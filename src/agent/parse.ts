/**
 * Reading one tool call out of a model's raw output. The canonical call is one JSON object
 * `{"thought"?: string, "tool": NAME, "args": {...}}`; the parser also accepts what small
 * models actually write — prose around the JSON, Markdown fences, Hermes/Qwen `<tool_call>`
 * tags, `{"name", "arguments"}` and OpenAI `{"function": …}` shapes, arguments as a JSON
 * string or flattened beside `tool`, and the JSON slips repaired in json-scan.ts — and the
 * native formats small models are trained on (Qwen3-Coder XML, pythonic lists, Mistral,
 * DeepSeek, Gemma, harmony …, one family per file in formats/). Reasoning spans are never read
 * for a call, and nothing is guessed: a call that began in a format but is broken is no call.
 *
 * One tool call per turn: the message is cut to its first call and every further call is
 * reported as dropped. Anything unparseable is answered with a message that says exactly how
 * to retry, showing the canonical shape.
 */
import {
  blankThinking,
  ENVELOPE_CLOSE,
  ENVELOPE_MARKERS,
  envelopeOf,
  isCall,
  NATIVE_FORMATS,
  type BrokenCall,
} from './formats/index.ts';
import { typeTextValues, type TypedValue } from './formats/typed-values.ts';
import { matchObject, parseLenient, parseUnclosed, type JsonRepair } from './json-scan.ts';
import { MAX_ARGS_DEPTH, nestingDepth, TOO_DEEP } from './args-depth.ts';

export interface ParsedCall {
  readonly tool: string;
  /** Usually an object; anything else is passed on so the engine can say the arguments must be an object. */
  readonly args: unknown;
  readonly thought?: string;
}

/** How the call was found: JSON repairs plus the wrapping the parser looked through. */
export type ParseRepair =
  | JsonRepair
  | 'think'
  | 'fence'
  | 'tool-call-tag'
  | 'prose'
  | 'name-arguments'
  | 'function-wrapper'
  | 'args-string'
  | 'flat-args'
  | 'typed-values';

export type ParseErrorKind = 'no-call' | 'truncated' | 'invalid-json' | 'no-tool-name' | 'broken-call';

export type ParseOutcome =
  | {
      readonly ok: true;
      readonly call: ParsedCall;
      /** The message cut to its first call: what the history keeps as the assistant turn. */
      readonly kept: string;
      /** Tool names of the further calls that were dropped, in order. */
      readonly dropped: readonly string[];
      readonly repairs: readonly ParseRepair[];
      /** The format the call was written in: "json", an envelope ("hermes", "granite" …) or a native format ("qwen3-xml", "pythonic" …). */
      readonly format: string;
      /** Text values of an XML-style call read by the tool's schema (`typed-values` among the repairs). */
      readonly typed?: readonly TypedValue[];
    }
  | {
      readonly ok: false;
      readonly error: ParseErrorKind;
      readonly message: string;
      /** For a broken call: the format it began in. */
      readonly format?: string;
    };

/** The canonical shapes, quoted in retry messages and the system prompt. */
export const CANONICAL_CALL = '{"tool": "ws_read", "args": {"path": "src/index.js"}}';
export const CANONICAL_DONE = '{"tool": "done", "args": {"summary": "what you changed and how you checked it"}}';

export interface ParseOptions {
  /** Known tool names; a bare `{"name": X}` object counts as a call only when X is one of them. */
  readonly tools?: readonly string[];
  /** False reads JSON envelopes only (the bench's baseline); native formats are read by default. */
  readonly nativeFormats?: boolean;
  /**
   * Each tool's arguments as a JSON schema, by tool name: the text values of an XML-style call
   * are read by the types it gives (formats/typed-values.ts). Without it they stay text.
   */
  readonly schemas?: ReadonlyMap<string, { readonly [key: string]: unknown }>;
}

/** Parses the first tool call in `raw`. Never throws. */
export function parseCall(raw: string, opts: ParseOptions = {}): ParseOutcome {
  const known = new Set([...(opts.tools ?? []), 'done']);
  // Reasoning models think first (<think>…</think> and the like); a call sketched there is not the call.
  const { text, ends } = blankThinking(raw);
  const json = scanJson(text, known);
  const native: Block[] = (opts.nativeFormats === false ? [] : NATIVE_FORMATS).flatMap((f) =>
    f
      .scan(text)
      .map((b) =>
        isCall(b)
          ? { ...b, calls: b.calls.map((c) => ({ tool: c.tool.trim(), args: c.args })), repairs: [] as ParseRepair[] }
          : { ...b, label: f.label },
      ),
  );
  // Earliest first; a block inside an earlier one (a JSON object inside native arguments) is part of it.
  const blocks: Block[] = [];
  let covered = -1;
  for (const b of [...json.calls, ...native].sort((x, y) => x.start - y.start || y.end - x.end)) {
    if (b.start < covered) continue;
    blocks.push(b);
    covered = b.end;
  }

  const found = blocks.filter((b): b is CallBlock => 'calls' in b);
  const first = found[0];
  if (first) {
    const end = keepEnd(raw, first.end);
    const thought = ends.some((e) => e <= first.start) ? ['think' as const] : [];
    const wrapped = json.calls.includes(first) ? wrapping(text, first.start, end, found.slice(1)) : [];
    const dropped = [...first.calls.slice(1), ...found.slice(1).flatMap((b) => b.calls)].map((c) => c.tool);
    const call = first.calls[0]!;
    if (nestingDepth(call.args) > MAX_ARGS_DEPTH) return { ok: false, error: 'invalid-json', message: TOO_DEEP };
    const typed =
      first.textValues && isRecord(call.args) ? typeTextValues(call.args, opts.schemas?.get(call.tool)) : undefined;
    if (typed && nestingDepth(typed.args) > MAX_ARGS_DEPTH)
      return { ok: false, error: 'invalid-json', message: TOO_DEEP };
    return {
      ok: true,
      call: typed ? { ...call, args: typed.args } : call,
      kept: raw.slice(0, end),
      dropped,
      repairs: [...first.repairs, ...thought, ...wrapped, ...(typed?.typed.length ? ['typed-values' as const] : [])],
      format: first.format,
      ...(typed?.typed.length && { typed: typed.typed }),
    };
  }
  const broken = blocks.find((b): b is BrokenBlock => 'problem' in b);
  if (broken) return { ok: false, error: 'broken-call', message: brokenCall(broken), format: broken.format };
  if (json.stopped && !json.badJson) return { ok: false, error: 'invalid-json', message: TOO_TANGLED };
  if (json.truncated) return { ok: false, error: 'truncated', message: TRUNCATED };
  if (json.badJson)
    return { ok: false, error: 'invalid-json', message: invalidJson(json.badJson.error, json.badJson.snippet) };
  if (json.shapeless) return { ok: false, error: 'no-tool-name', message: noToolName(json.shapeless) };
  return { ok: false, error: 'no-call', message: NO_CALL };
}

interface CallBlock {
  readonly format: string;
  readonly start: number;
  readonly end: number;
  readonly calls: readonly ParsedCall[];
  readonly repairs: readonly ParseRepair[];
  /** Every value arrived as text (an XML-style format). */
  readonly textValues?: boolean;
}
type BrokenBlock = BrokenCall & { readonly label: string };
type Block = CallBlock | BrokenBlock;

interface JsonScan {
  readonly calls: CallBlock[];
  readonly truncated: boolean;
  /** The scan spent its work budget before it reached the end of the text. */
  readonly stopped: boolean;
  readonly badJson?: { error: string; snippet: string };
  readonly shapeless?: string[];
}

const OBJECT_OPENS = /\s*["'}]/y;

/**
 * The characters the JSON scan may match and parse, per character of the reply, beyond a floor.
 * Each candidate `{` costs the length of its span, and an object that never closes spans the
 * rest of the reply: thousands of them (a call pasted over and over, brackets opened and never
 * closed) would cost the square of the reply's length. Past the budget the scan stops.
 */
export const SCAN_WORK_PER_CHAR = 16;
const SCAN_WORK_FLOOR = 100_000;

/**
 * Every JSON envelope call in `text`, and why the objects that are not calls failed; `work`, when
 * given, counts the characters matched and parsed.
 */
export function scanJson(text: string, known: ReadonlySet<string>, work = { chars: 0 }): JsonScan {
  const calls: CallBlock[] = [];
  const budget = SCAN_WORK_PER_CHAR * text.length + SCAN_WORK_FLOOR;
  let stopped = false;
  let truncated = false;
  let badJson: { error: string; snippet: string } | undefined;
  let shapeless: string[] | undefined;
  for (let i = text.indexOf('{'); i >= 0; i = text.indexOf('{', i + 1)) {
    // Only a `{` followed by a key's quote (or `}`) can open an object; skipping the rest keeps long brace runs linear.
    OBJECT_OPENS.lastIndex = i + 1;
    if (!OBJECT_OPENS.test(text)) continue;
    if (work.chars > budget) {
      stopped = true;
      break;
    }
    const span = matchObject(text, i);
    // Matched once, then parsed (and perhaps repaired) once.
    work.chars += 2 * (span.end - span.start);
    const parsed = span.closed ? parseLenient(text.slice(span.start, span.end)) : parseUnclosed(text, span);
    if (!parsed.ok) {
      if (!span.closed) truncated = true;
      else if (!badJson && /["'](tool|name|args|arguments)["']/.test(text.slice(span.start, span.end))) {
        badJson = { error: parsed.error, snippet: text.slice(span.start, Math.min(span.end, span.start + 80)) };
      }
      continue; // try the next `{`: a call may sit inside a span that failed
    }
    const shaped = toCall(parsed.value, known);
    if (shaped) {
      const format = envelopeOf(text.slice(Math.max(0, span.start - 40), span.start));
      calls.push({
        format,
        start: span.start,
        end: span.end,
        calls: [shaped.call],
        repairs: [...parsed.repairs, ...shaped.repairs],
      });
      i = span.end - 1; // continue after this call, not inside it
    } else if (parsed.value && typeof parsed.value === 'object' && !Array.isArray(parsed.value)) {
      shapeless ??= Object.keys(parsed.value);
      i = span.end - 1;
    }
  }
  return { calls, truncated, stopped, ...(badJson && { badJson }), ...(shapeless && { shapeless }) };
}

/** The text the loop appends to a result when further calls were dropped. */
export function droppedCallsText(dropped: readonly string[]): string {
  const n = dropped.length;
  const doneNote = dropped.includes('done')
    ? ' Your done was dropped too: send it again once you have seen this result.'
    : '';
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

const TOO_TANGLED =
  'Your reply opens more JSON objects than are read in one reply (most of them never close, or nest inside each other), so the search for a call stopped and nothing was run. ' +
  'Send exactly one complete JSON object and nothing else, for example:\n' +
  `${CANONICAL_CALL}\n` +
  `When the task is complete: ${CANONICAL_DONE}`;

function invalidJson(error: string, snippet: string): string {
  return (
    `Your reply had a JSON object that could not be parsed (${error}) near: ${snippet}\n` +
    'Nothing was run. Send exactly one valid JSON object, for example:\n' +
    `${CANONICAL_CALL}\n` +
    'Double-quote every key and string; inside strings write a newline as \\n, a quote as \\" and a backslash as \\\\.'
  );
}

function brokenCall(b: BrokenBlock): string {
  return (
    `Your reply began a tool call in the ${b.format} format, but ${b.problem}, so nothing was run. ` +
    `Send the call again, complete (${b.label}), or as exactly one JSON object:\n` +
    `${CANONICAL_CALL}\n` +
    `When the task is complete: ${CANONICAL_DONE}`
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

/** Extends the kept text over the envelope's closing marker right after the call. */
function keepEnd(raw: string, end: number): number {
  const m = ENVELOPE_CLOSE.exec(raw.slice(end));
  return m ? end + m[0].length : end;
}

/** Names the wrapping around a JSON call: a fence, tags, or prose the model added. */
function wrapping(
  text: string,
  start: number,
  end: number,
  dropped: readonly { start: number; end: number }[],
): ParseRepair[] {
  const before = text.slice(0, start);
  // The further calls are not prose around the first: they are dropped and said so on their own.
  let after = '';
  let at = end;
  for (const d of dropped) {
    if (d.start < at) continue;
    after += text.slice(at, d.start);
    at = d.end;
  }
  after += text.slice(at);
  const out: ParseRepair[] = [];
  if (/```[a-z]*\s*$/i.test(before)) out.push('fence');
  if (/<tool_call>\s*$/.test(before)) out.push('tool-call-tag');
  const prose = (before + after).replace(ENVELOPE_MARKERS, '').replace(/^[\s[\],]+|[\s[\],]+$/g, '');
  if (prose) out.push('prose');
  return out;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
