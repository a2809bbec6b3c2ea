/**
 * XML-style calls whose arguments are tagged one by one:
 * - Qwen3-Coder / Nemotron / Seed-OSS: `<function=NAME><parameter=KEY>\nvalue\n</parameter></function>`,
 *   with or without `<tool_call>` (`<seed:tool_call>`) around it;
 * - MiniCPM: `<function name="NAME"><param name="KEY">value</param></function>`, CDATA allowed.
 * Values are text as written (one newline either side trimmed for Qwen), marked so: parse.ts
 * reads each by the type the tool's schema gives it (typed-values.ts). A parameter that never closes, a repeated or
 * nameless parameter, stray text inside the call or a call that never closes is broken, never guessed.
 */
import type { Found, NativeFormat } from './types.ts';

interface Shape {
  readonly format: string;
  readonly head: RegExp;
  readonly param: RegExp;
  readonly paramClose: string;
  readonly value: (v: string) => string;
}

const QWEN: Shape = {
  format: 'qwen3-xml',
  head: /(?:<(?:seed:)?tool_call>\s*)?<function=([^>\s]+)>(?!\s*\{)/g,
  param: /^<parameter=([^>\s]+)>/,
  paramClose: '</parameter>',
  value: (v) => v.replace(/^\n/, '').replace(/\n$/, ''),
};

const MINICPM: Shape = {
  format: 'minicpm-xml',
  head: /<function[\s\u0120]*name="([^"]+)">/g,
  param: /^<param(?:[\s\u0120]*name="([^"]*)")?>/,
  paramClose: '</param>',
  value: (v) => (/^<!\[CDATA\[[\s\S]*\]\]>$/.test(v) ? v.slice(9, -3) : v),
};

const WRAP_CLOSE = /^\s*<\/(?:seed:)?tool_call>/;

function scanShape(shape: Shape, text: string): Found[] {
  const out: Found[] = [];
  for (const m of text.matchAll(shape.head)) {
    const start = m.index;
    // A broken call spans to its </function>, so nothing inside it is read as another call.
    const close = text.indexOf('</function>', start);
    const broken = (problem: string): Found => ({
      format: shape.format,
      start,
      end: close < 0 ? text.length : close + '</function>'.length,
      problem,
    });
    const args: Record<string, string> = {};
    let at = start + m[0].length;
    let result: Found | undefined;
    while (!result) {
      while (/\s/.test(text[at] ?? '')) at++;
      const rest = text.slice(at);
      if (rest.startsWith('</function>')) {
        at += '</function>'.length;
        const wrap = WRAP_CLOSE.exec(text.slice(at));
        result = {
          format: shape.format,
          start,
          end: at + (wrap?.[0].length ?? 0),
          calls: [{ tool: m[1]!, args }],
          textValues: true,
        };
        break;
      }
      if (rest === '') result = broken(`the call to ${m[1]} never closes with </function>`);
      const p = shape.param.exec(rest);
      if (!p) {
        result ??= broken(`unexpected text inside the call to ${m[1]}: ${JSON.stringify(rest.slice(0, 30))}`);
        break;
      }
      const key = p[1];
      if (!key) result = broken(`a parameter of ${m[1]} has no name`);
      else if (Object.hasOwn(args, key)) result = broken(`the parameter ${key} is given twice`);
      else {
        const valueEnd = text.indexOf(shape.paramClose, at + p[0].length);
        if (valueEnd < 0) result = broken(`the parameter ${key} never closes with ${shape.paramClose}`);
        else {
          args[key] = shape.value(text.slice(at + p[0].length, valueEnd));
          at = valueEnd + shape.paramClose.length;
        }
      }
    }
    out.push(result);
  }
  return out;
}

export const qwenXml: NativeFormat = {
  label: '<function=ws_read><parameter=path>src/index.js</parameter></function>',
  scan: (text) => scanShape(QWEN, text),
};

export const minicpmXml: NativeFormat = {
  label: '<function name="ws_read"><param name="path">src/index.js</param></function>',
  scan: (text) => scanShape(MINICPM, text),
};
