/**
 * Formats that name the tool in special tokens and send the arguments as one JSON object:
 * - Mistral v11+: `[TOOL_CALLS]NAME[ARGS]{…}` (optionally `[CALL_ID]id` before `[ARGS]`);
 * - DeepSeek V3/R1: `<｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME` + a ```json fence, and V3.1's
 *   `<｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…}`;
 * - gpt-oss harmony: `to=functions.NAME … <|message|>{…}<|call|>`;
 * - Llama 3.1 / functionary: `<function=NAME>{…}</function>`;
 * - Apertus: `<|tools_prefix|>[{"NAME": {…}}, …]<|tools_suffix|>`.
 * The JSON is read with the same lenient reader as the plain envelopes (json-scan.ts).
 */
import { matchObject, parseLenient, parseUnclosed } from '../json-scan.ts';
import { decodeArgs, type Found, type NativeCall, type NativeFormat } from './types.ts';

type Json = { ok: true; value: unknown; end: number } | { ok: false; problem: string };

/** Reads the JSON object or array (or a JSON string holding one) that starts at `at`, after whitespace. */
function jsonAt(text: string, at: number): Json {
  while (/\s/.test(text[at] ?? '')) at++;
  const quoted = text[at] === '"' ? /^"(?:[^"\\]|\\.)*"/.exec(text.slice(at))?.[0] : undefined;
  if (quoted) return { ok: true, value: JSON.parse(quoted) as unknown, end: at + quoted.length };
  if (text[at] !== '{' && text[at] !== '[')
    return {
      ok: false,
      problem: `its arguments are not a JSON object (found ${JSON.stringify(text.slice(at, at + 20)) || 'nothing'})`,
    };
  const span = matchObject(text, at);
  const parsed = span.closed ? parseLenient(text.slice(span.start, span.end)) : parseUnclosed(text, span);
  if (!parsed.ok)
    return {
      ok: false,
      problem: span.closed ? `its arguments are not valid JSON (${parsed.error})` : 'its arguments were cut off',
    };
  return { ok: true, value: parsed.value, end: span.end };
}

/** The length of `re` matched right at `at`, or 0. */
function tail(text: string, at: number, re: RegExp): number {
  return re.exec(text.slice(at))?.[0].length ?? 0;
}

interface Headed {
  readonly format: string;
  readonly head: RegExp;
  /** Text allowed between the header and the JSON (a fence opening). */
  readonly before?: RegExp;
  /** Closing text taken into the call's span when present. */
  readonly after: RegExp;
}

function scanHeaded(h: Headed, text: string): Found[] {
  const out: Found[] = [];
  for (const m of text.matchAll(h.head)) {
    const tool = m.slice(1).find((g) => g !== undefined)!;
    let at = m.index + m[0].length;
    if (h.before) at += tail(text, at, h.before);
    const json = jsonAt(text, at);
    if (!json.ok) {
      out.push({ format: h.format, start: m.index, end: at, problem: `the call to ${tool}: ${json.problem}` });
      continue;
    }
    const args = decodeArgs(json.value);
    out.push({
      format: h.format,
      start: m.index,
      end: json.end + tail(text, json.end, h.after),
      calls: [{ tool, args }],
    });
  }
  return out;
}

const MISTRAL: Headed = {
  format: 'mistral',
  head: /\[TOOL_CALLS\]\s*([A-Za-z_][\w.-]*)\s*(?:\[CALL_ID\][^[]*)?\[ARGS\]/g,
  after: /^$/,
};

const DEEPSEEK: Headed = {
  format: 'deepseek',
  head: /(?:<｜tool▁calls▁begin｜>\s*)?<｜tool▁call▁begin｜>\s*(?:function\s*<｜tool▁sep｜>\s*([^\s<｜]+)|([^\s<｜]+?)\s*<｜tool▁sep｜>)/g,
  before: /^\s*```(?:json)?/,
  after: /^\s*(?:```)?\s*(?:<｜tool▁call▁end｜>)?(?:\s*<｜tool▁calls▁end｜>)?/,
};

const FUNCTION_JSON: Headed = {
  format: 'function-json',
  head: /<function=([^>\s]+)>(?=\s*\{)/g,
  after: /^\s*<\/function>/,
};

export const mistral: NativeFormat = {
  label: '[TOOL_CALLS]ws_read[ARGS]{"path": "src/index.js"}',
  scan: (t) => scanHeaded(MISTRAL, t),
};
export const deepseek: NativeFormat = {
  label: '<｜tool▁call▁begin｜>function<｜tool▁sep｜>ws_read + a ```json fence',
  scan: (t) => scanHeaded(DEEPSEEK, t),
};
export const functionJson: NativeFormat = {
  label: '<function=ws_read>{"path": "src/index.js"}</function>',
  scan: (t) => scanHeaded(FUNCTION_JSON, t),
};

const HARMONY_HEAD = /to=functions\.([\w.-]+)[^<]*(?:<\|channel\|>[^<]*)?(?:<\|constrain\|>[^<]*)?<\|message\|>/g;

export const harmony: NativeFormat = {
  label: 'to=functions.ws_read<|channel|>commentary json<|message|>{"path": "src/index.js"}<|call|>',
  scan(text) {
    const out: Found[] = [];
    for (const m of text.matchAll(HARMONY_HEAD)) {
      const tool = m[1]!;
      const from = m.index + m[0].length;
      const callAt = text.indexOf('<|call|>', from);
      const stop = callAt < 0 ? text.length : callAt;
      const end = callAt < 0 ? text.length : callAt + '<|call|>'.length;
      if (text.slice(from, stop).trim() === '') {
        out.push({ format: 'harmony', start: m.index, end, calls: [{ tool, args: {} }] });
        continue;
      }
      const json = jsonAt(text.slice(0, stop), from);
      if (!json.ok || text.slice(json.end, stop).trim() !== '') {
        out.push({
          format: 'harmony',
          start: m.index,
          end,
          problem: `the call to ${tool}: ${json.ok ? 'text follows its JSON arguments' : json.problem}`,
        });
      } else out.push({ format: 'harmony', start: m.index, end, calls: [{ tool, args: decodeArgs(json.value) }] });
    }
    return out;
  },
};

const APERTUS_HEAD = /<\|tools_prefix\|>/g;

export const apertus: NativeFormat = {
  label: '<|tools_prefix|>[{"ws_read": {"path": "src/index.js"}}]<|tools_suffix|>',
  scan(text) {
    const out: Found[] = [];
    for (const m of text.matchAll(APERTUS_HEAD)) {
      const from = m.index + m[0].length;
      const json = jsonAt(text, from);
      const list = json.ok && Array.isArray(json.value) ? json.value : undefined;
      const calls = list?.map((entry: unknown) => {
        const keys = typeof entry === 'object' && entry !== null && !Array.isArray(entry) ? Object.keys(entry) : [];
        return keys.length === 1
          ? { tool: keys[0]!, args: decodeArgs((entry as Record<string, unknown>)[keys[0]!]) }
          : undefined;
      });
      if (!json.ok || !calls?.length || calls.some((c) => c === undefined)) {
        const problem = json.ok ? 'it is not a list of {"tool name": {arguments}} objects' : json.problem;
        out.push({ format: 'apertus', start: m.index, end: json.ok ? json.end : text.length, problem });
        continue;
      }
      const end = json.end + tail(text, json.end, /^\s*<\|tools_suffix\|>/);
      out.push({ format: 'apertus', start: m.index, end, calls: calls as NativeCall[] });
    }
    return out;
  },
};
