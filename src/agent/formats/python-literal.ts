/**
 * A small grammar for Python call expressions whose arguments are literals, as pythonic
 * tool-call formats write them: `ws_read(path='a.js', limit=40)`. Strings in every quote and
 * prefix form (r, u; bytes are refused), with Python's escapes and adjacent-literal joining;
 * integers (decimal, 0x, 0o, 0b, underscores) and finite floats; True/False/None; lists,
 * tuples and dicts. Nothing is evaluated: any other expression is a syntax error.
 */

export interface PyCall {
  readonly tool: string;
  readonly args: Record<string, unknown>;
  readonly start: number;
  readonly end: number;
}

export class PySyntaxError extends Error {}

/** Deeper nesting is refused rather than read (no tool argument nests this deep). */
const MAX_DEPTH = 64;

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\',
  "'": "'",
  '"': '"',
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\n': '',
};

export class PyReader {
  constructor(
    readonly text: string,
    public at = 0,
  ) {}

  /** One call: NAME(key=literal, ...). */
  call(): PyCall {
    this.space();
    const start = this.at;
    const name = /^[A-Za-z_][\w.]*/.exec(this.text.slice(this.at))?.[0];
    if (!name) throw this.fail('a function name');
    this.at += name.length;
    this.expect('(');
    const args: Record<string, unknown> = {};
    while (!this.take(')')) {
      const key = /^[A-Za-z_]\w*(?=\s*=(?!=))/.exec(this.text.slice(this.at))?.[0];
      if (!key) throw this.fail('a keyword argument (name=value)');
      if (Object.hasOwn(args, key)) throw new PySyntaxError(`the argument ${key} is given twice`);
      this.at += key.length;
      this.expect('=');
      args[key] = this.value();
      if (!this.take(',')) {
        this.expect(')');
        break;
      }
    }
    return { tool: name, args, start, end: this.at };
  }

  value(depth = 0): unknown {
    if (depth > MAX_DEPTH) throw new PySyntaxError(`values nest deeper than ${MAX_DEPTH} levels`);
    this.space();
    const c = this.text[this.at];
    if (c === '[') return this.sequence('[', ']', depth);
    if (c === '(') return this.sequence('(', ')', depth);
    if (c === '{') return this.dict(depth);
    const word = /^[A-Za-z_]\w*/.exec(this.text.slice(this.at))?.[0];
    if (word === 'True' || word === 'False' || word === 'None') {
      this.at += word.length;
      return word === 'True' ? true : word === 'False' ? false : null;
    }
    const prefixed =
      word !== undefined && /^[rRuUbB]{1,2}$/.test(word) && /['"]/.test(this.text[this.at + word.length] ?? '');
    if (prefixed && /b/i.test(word)) throw new PySyntaxError('a bytes literal is not a JSON value');
    if (prefixed || c === "'" || c === '"') return this.strings();
    return this.number();
  }

  /** Reads `c` (after whitespace) when it is next. */
  take(c: string): boolean {
    this.space();
    if (this.text[this.at] !== c) return false;
    this.at++;
    return true;
  }

  space(): void {
    while (/\s/.test(this.text[this.at] ?? '')) this.at++;
  }

  private expect(c: string): void {
    if (!this.take(c)) throw this.fail(`"${c}"`);
  }

  private fail(wanted: string): PySyntaxError {
    const near = this.text.slice(this.at, this.at + 20);
    return new PySyntaxError(`expected ${wanted} at ${near ? JSON.stringify(near) : 'the end'}`);
  }

  private sequence(open: string, close: string, depth: number): unknown[] {
    this.expect(open);
    const out: unknown[] = [];
    while (!this.take(close)) {
      out.push(this.value(depth + 1));
      if (!this.take(',')) {
        this.expect(close);
        break;
      }
    }
    return out;
  }

  private dict(depth: number): Record<string, unknown> {
    this.expect('{');
    const out: Record<string, unknown> = {};
    while (!this.take('}')) {
      const key = this.value(depth + 1);
      if (typeof key !== 'string' && typeof key !== 'number')
        throw new PySyntaxError('a dict key must be a string or a number');
      this.expect(':');
      out[String(key)] = this.value(depth + 1);
      if (!this.take(',')) {
        this.expect('}');
        break;
      }
    }
    return out;
  }

  /** One or more adjacent string literals, joined. */
  private strings(): string {
    let out = this.string();
    while (/^\s*[rRuU]{0,2}['"]/.test(this.text.slice(this.at))) {
      this.space();
      out += this.string();
    }
    return out;
  }

  private string(): string {
    const prefix = /^[rRuU]{0,2}/.exec(this.text.slice(this.at))![0];
    const raw = /r/i.test(prefix);
    this.at += prefix.length;
    const q = this.text[this.at]!;
    const quote = this.text.startsWith(q.repeat(3), this.at) ? q.repeat(3) : q;
    this.at += quote.length;
    let out = '';
    for (;;) {
      if (this.at >= this.text.length) throw new PySyntaxError('a string never closes');
      if (this.text.startsWith(quote, this.at)) {
        this.at += quote.length;
        return out;
      }
      const c = this.text[this.at]!;
      if (c === '\n' && quote.length === 1) throw new PySyntaxError('a string breaks across lines');
      if (c !== '\\') {
        out += c;
        this.at++;
        continue;
      }
      const next = this.text[this.at + 1] ?? '';
      if (raw) {
        out += c + next;
        this.at += 2;
        continue;
      }
      out += this.escape(next);
    }
  }

  private escape(next: string): string {
    const simple = SIMPLE_ESCAPES[next];
    if (simple !== undefined) {
      this.at += 2;
      return simple;
    }
    const hex = { x: 2, u: 4, U: 8 }[next];
    if (hex) {
      const digits = this.text.slice(this.at + 2, this.at + 2 + hex);
      if (!new RegExp(`^[0-9a-fA-F]{${hex}}$`).test(digits))
        throw new PySyntaxError(`a \\${next} escape needs ${hex} hex digits`);
      const code = parseInt(digits, 16);
      if (code > 0x10ffff) throw new PySyntaxError(`\\${next}${digits} is not a Unicode character`);
      this.at += 2 + hex;
      return String.fromCodePoint(code);
    }
    const octal = /^[0-7]{1,3}/.exec(this.text.slice(this.at + 1))?.[0];
    if (octal) {
      this.at += 1 + octal.length;
      return String.fromCodePoint(parseInt(octal, 8));
    }
    if (next === 'N') throw new PySyntaxError('a \\N{…} escape is not supported');
    // Python keeps an unknown escape as written.
    this.at += 2;
    return `\\${next}`;
  }

  private number(): number {
    const m =
      /^[-+]?\s*(0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|(\d[\d_]*)?\.?\d[\d_]*([eE][-+]?\d+)?|\d[\d_]*\.)(?![\w.])/.exec(
        this.text.slice(this.at),
      );
    if (!m) throw this.fail('a value (a string, number, True, False, None, list or dict)');
    this.at += m[0].length;
    const sign = m[0].trimStart().startsWith('-') ? -1 : 1;
    const body = m[1]!.replace(/_/g, '');
    const radix = /^0[xX]/.test(body) ? 16 : /^0[oO]/.test(body) ? 8 : /^0[bB]/.test(body) ? 2 : 10;
    const n = sign * (radix === 10 ? Number(body) : parseInt(body.slice(2), radix));
    if (!Number.isFinite(n)) throw new PySyntaxError(`the number ${m[0]} is not finite`);
    return n;
  }
}
