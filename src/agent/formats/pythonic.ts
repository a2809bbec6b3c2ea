/**
 * Pythonic tool calls: `[ws_read(path='a.js'), ws_grep(pattern="x")]` (Llama 3.2/4, LFM2,
 * Olmo 3, Granite pythonic). Without markers the list must be the whole reply — a call
 * mentioned in prose is not a call. Inside LFM2's `<|tool_call_start|>`, Llama 4's
 * `<|python_start|>` or Olmo 3's `<function_calls>` (one call per line there) it may sit
 * anywhere. Arguments are read by the literal grammar in python-literal.ts.
 */
import { PyReader, PySyntaxError } from './python-literal.ts';
import type { Found, NativeFormat } from './types.ts';

const FORMAT = 'pythonic';
const MARKED: readonly (readonly [string, string])[] = [
  ['<|tool_call_start|>', '<|tool_call_end|>'],
  ['<|python_start|>', '<|python_end|>'],
  ['<function_calls>', '</function_calls>'],
];
const STARTS_LIKE_A_CALL = /^\[\s*[A-Za-z_][\w.]*\s*\(/;

export const pythonic: NativeFormat = {
  label: "[ws_read(path='src/index.js')]",
  scan(text) {
    const out: Found[] = [];
    for (const [open, close] of MARKED) {
      for (let o = text.indexOf(open); o >= 0; o = text.indexOf(open, o + 1)) {
        const c = text.indexOf(close, o);
        out.push(
          ...readBlock(text, o, o + open.length, c < 0 ? text.length : c, c < 0 ? text.length : c + close.length),
        );
      }
    }
    const lead = text.length - text.trimStart().length;
    const body = text.trim();
    if (out.length === 0 && STARTS_LIKE_A_CALL.test(body))
      out.push(...readBlock(text, lead, lead, lead + body.length, lead + body.length));
    return out;
  },
};

/** Reads the calls between `from` and `to`: a bracketed list, or calls one per line. */
function readBlock(text: string, start: number, from: number, to: number, end: number): Found[] {
  const inner = text.slice(0, to);
  const r = new PyReader(inner, from);
  try {
    r.space();
    const listed = r.take('[');
    const calls = [];
    for (;;) {
      calls.push(r.call());
      if (listed ? !r.take(',') : (r.space(), r.at >= to)) break;
    }
    if (listed && !r.take(']')) throw new PySyntaxError('the list of calls never closes with "]"');
    r.space();
    if (r.at < to) throw new PySyntaxError(`text follows the calls: ${JSON.stringify(inner.slice(r.at, r.at + 20))}`);
    return [{ format: FORMAT, start, end, calls: calls.map((c) => ({ tool: c.tool, args: c.args })) }];
  } catch (e) {
    if (!(e instanceof PySyntaxError)) throw e;
    return [{ format: FORMAT, start, end, problem: e.message }];
  }
}
