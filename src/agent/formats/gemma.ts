/**
 * FunctionGemma and Gemma 4: `call:NAME{key:<escape>text<escape>,n:3,xs:[…],o:{…}}`, inside
 * `<start_function_call>…<end_function_call>` or `<|tool_call>…<tool_call|>` (Gemma 4 quotes
 * strings with `<|"|>`), or as the whole reply. Keys are bare words; values are quoted text,
 * JSON strings, numbers, true/false/null, lists and nested objects. Quoted text stays a string.
 */
import type { Found, NativeFormat } from './types.ts';

const FORMAT = 'gemma';
const QUOTES = ['<escape>', '<|"|>'] as const;
const BLOCKS: readonly (readonly [string, string])[] = [
  ['<start_function_call>', '<end_function_call>'],
  ['<|tool_call>', '<tool_call|>'],
];

class Broken extends Error {}

/** Deeper nesting is refused rather than read (no tool argument nests this deep). */
const MAX_DEPTH = 64;

class Reader {
  constructor(
    readonly text: string,
    public at: number,
  ) {}

  call(): { tool: string; args: Record<string, unknown> } {
    this.space();
    const head = /^call:([A-Za-z_][\w.-]*)/.exec(this.text.slice(this.at));
    if (!head) throw new Broken('it does not start with call:NAME{');
    this.at += head[0].length;
    return { tool: head[1]!, args: this.object(0) };
  }

  private object(depth: number): Record<string, unknown> {
    if (depth > MAX_DEPTH) throw new Broken(`values nest deeper than ${MAX_DEPTH} levels`);
    this.expect('{');
    const out: Record<string, unknown> = {};
    while (!this.take('}')) {
      const key = this.key();
      if (Object.hasOwn(out, key)) throw new Broken(`the argument ${key} is given twice`);
      this.expect(':');
      out[key] = this.value(depth + 1);
      if (!this.take(',')) {
        this.expect('}');
        break;
      }
    }
    return out;
  }

  private key(): string {
    this.space();
    const quoted = this.quoted();
    if (quoted !== undefined) return quoted;
    const word = /^[A-Za-z_][\w.-]*/.exec(this.text.slice(this.at))?.[0];
    if (!word)
      throw new Broken(`expected an argument name at ${JSON.stringify(this.text.slice(this.at, this.at + 20))}`);
    this.at += word.length;
    return word;
  }

  private value(depth: number): unknown {
    if (depth > MAX_DEPTH) throw new Broken(`values nest deeper than ${MAX_DEPTH} levels`);
    this.space();
    const quoted = this.quoted();
    if (quoted !== undefined) return quoted;
    const c = this.text[this.at];
    if (c === '{') return this.object(depth);
    if (c === '[') {
      this.at++;
      const out: unknown[] = [];
      while (!this.take(']')) {
        out.push(this.value(depth + 1));
        if (!this.take(',')) {
          this.expect(']');
          break;
        }
      }
      return out;
    }
    const m = /^(?:"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null)(?=\s*[,}\]])/.exec(
      this.text.slice(this.at),
    );
    if (!m) throw new Broken(`expected a value at ${JSON.stringify(this.text.slice(this.at, this.at + 20))}`);
    this.at += m[0].length;
    return JSON.parse(m[0]) as unknown;
  }

  private quoted(): string | undefined {
    const q = QUOTES.find((s) => this.text.startsWith(s, this.at));
    if (!q) return undefined;
    const close = this.text.indexOf(q, this.at + q.length);
    if (close < 0) throw new Broken(`a ${q} string never closes`);
    const s = this.text.slice(this.at + q.length, close);
    this.at = close + q.length;
    return s;
  }

  take(c: string): boolean {
    this.space();
    if (this.text[this.at] !== c) return false;
    this.at++;
    return true;
  }

  private expect(c: string): void {
    if (!this.take(c))
      throw new Broken(`expected "${c}" at ${JSON.stringify(this.text.slice(this.at, this.at + 20)) || 'the end'}`);
  }

  space(): void {
    while (/\s/.test(this.text[this.at] ?? '')) this.at++;
  }
}

/** Reads one call between `from` and `to`; the span is start…end. */
function read(text: string, start: number, from: number, to: number, end: number): Found {
  const r = new Reader(text.slice(0, to), from);
  try {
    const call = r.call();
    r.space();
    if (r.at < to)
      throw new Broken(`text follows the call: ${JSON.stringify(text.slice(r.at, Math.min(to, r.at + 20)))}`);
    return { format: FORMAT, start, end, calls: [call] };
  } catch (e) {
    if (!(e instanceof Broken)) throw e;
    return { format: FORMAT, start, end, problem: e.message };
  }
}

export const gemma: NativeFormat = {
  label: '<start_function_call>call:ws_read{path:<escape>src/index.js<escape>}<end_function_call>',
  scan(text) {
    const out: Found[] = [];
    for (const [open, close] of BLOCKS) {
      for (let o = text.indexOf(open); o >= 0; o = text.indexOf(open, o + 1)) {
        const c = text.indexOf(close, o);
        const to = c < 0 ? text.length : c;
        out.push(read(text, o, o + open.length, to, c < 0 ? to : c + close.length));
      }
    }
    const lead = text.length - text.trimStart().length;
    const body = text.trim();
    if (out.length === 0 && /^call:[A-Za-z_][\w.-]*\{/.test(body))
      out.push(read(text, lead, lead, lead + body.length, lead + body.length));
    return out;
  },
};
