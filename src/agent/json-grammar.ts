/**
 * The call's JSON schema (`callJsonSchema`) as a llama.cpp GBNF grammar, so a llama.cpp engine
 * (node-llama-cpp, wllama) can only write a call that the schema accepts. Covers exactly the
 * JSON-schema keywords the tool schemas use — objects (properties in order, optional ones may be
 * left out, no others), strings (minLength), integers and numbers (a lower bound of 0 or 1),
 * booleans, null, const, enum, anyOf/oneOf, arrays — and throws on any other keyword, so a tool
 * schema that needs more fails its test instead of being loosely constrained. Whitespace between
 * tokens is at most one space.
 */

type Schema = { readonly [key: string]: unknown };

/** Keywords that do not constrain the text. */
const IGNORED = new Set(['description', 'title', 'default', 'examples', '$schema']);
const HANDLED = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'anyOf',
  'oneOf',
  'const',
  'enum',
  'minLength',
  'minimum',
  'exclusiveMinimum',
]);

const BASE_RULES = [
  'ws ::= " "?',
  'char ::= [^"\\\\\\x7F\\x00-\\x1F] | "\\\\" (["\\\\/bfnrt] | "u" [0-9a-fA-F]{4})',
  'string ::= "\\"" char* "\\""',
  'digits ::= [0-9]{0,15}',
  'integer ::= "-"? ("0" | [1-9] digits)',
  'natural ::= "0" | [1-9] digits',
  'positive ::= [1-9] digits',
  'fraction ::= ("." [0-9]{1,15})? ([eE] [-+]? [0-9]{1,3})?',
  'boolean ::= "true" | "false"',
  'null ::= "null"',
  'value ::= object-any | array-any | string | integer fraction | boolean | null',
  'object-any ::= "{" ws (string ws ":" ws value (ws "," ws string ws ":" ws value)*)? ws "}"',
  'array-any ::= "[" ws (value (ws "," ws value)*)? ws "]"',
];

/** A GBNF string literal for exact text. */
function literal(text: string): string {
  return `"${text
    .replace(/[\\"]/g, (c) => `\\${c}`)
    .replace(/\n/g, '\\n')
    .replace(/\r/g, '\\r')
    .replace(/\t/g, '\\t')}"`;
}

class Grammar {
  private readonly rules: string[] = [];
  private count = 0;

  /** Adds a rule and returns its name. */
  rule(body: string): string {
    const name = `r${this.count++}`;
    this.rules.push(`${name} ::= ${body}`);
    return name;
  }

  text(root: string): string {
    return [`root ::= ${root}`, ...this.rules, ...BASE_RULES].join('\n') + '\n';
  }

  value(s: Schema, at: string): string {
    for (const key of Object.keys(s)) {
      if (!HANDLED.has(key) && !IGNORED.has(key))
        throw new Error(`json grammar: the keyword ${JSON.stringify(key)} at ${at} is not supported`);
    }
    if ('const' in s) return literal(JSON.stringify(s.const));
    if (Array.isArray(s.enum)) return `(${s.enum.map((v) => literal(JSON.stringify(v))).join(' | ')})`;
    const alts = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
    if (alts) return this.rule(alts.map((alt, i) => this.value(alt, `${at}/anyOf/${i}`)).join(' | '));
    if (Array.isArray(s.type)) return `(${s.type.map((t) => this.typed({ ...s, type: t }, at)).join(' | ')})`;
    if (s.type === undefined) return 'value';
    return this.typed(s, at);
  }

  private typed(s: Schema, at: string): string {
    switch (s.type) {
      case 'object':
        return this.object(s, at);
      case 'array':
        return this.rule(`"[" ws (${this.item(s, at)} (ws "," ws ${this.item(s, at)})*)? ws "]"`);
      case 'string':
        return s.minLength ? this.rule(`"\\"" char{${Number(s.minLength)},} "\\""`) : 'string';
      case 'integer':
        return this.integer(s, at);
      case 'number':
        return `(${this.integer(s, at)} fraction)`;
      case 'boolean':
        return 'boolean';
      case 'null':
        return 'null';
      default:
        throw new Error(`json grammar: the type ${JSON.stringify(s.type)} at ${at} is not supported`);
    }
  }

  private item(s: Schema, at: string): string {
    return s.items === undefined ? 'value' : this.value(s.items as Schema, `${at}/items`);
  }

  private integer(s: Schema, at: string): string {
    const min =
      s.exclusiveMinimum !== undefined
        ? Number(s.exclusiveMinimum) + 1
        : s.minimum !== undefined
          ? Number(s.minimum)
          : undefined;
    if (min === undefined) return 'integer';
    if (min === 0) return 'natural';
    if (min === 1) return 'positive';
    throw new Error(`json grammar: a lower bound of ${min} at ${at} is not supported (only 0 and 1)`);
  }

  /** Properties in their order; each optional one may be left out; commas only between those written. */
  private object(s: Schema, at: string): string {
    const props = Object.entries((s.properties ?? {}) as Record<string, Schema>);
    const required = new Set((s.required ?? []) as string[]);
    const pairs = props.map(
      ([k, v]) => `${literal(JSON.stringify(k))} ws ":" ws ${this.value(v, `${at}/properties/${k}`)}`,
    );
    // tail(i, after): the properties from i on; `after` = one was written already, so each needs a leading comma.
    const memo = new Map<string, string>();
    const tail = (i: number, after: boolean): string => {
      if (i === props.length) return '';
      const key = `${i}:${after}`;
      const known = memo.get(key);
      if (known !== undefined) return known;
      const pair = `${after ? 'ws "," ws ' : ''}${pairs[i]}`;
      const rest = tail(i + 1, true);
      const written = rest ? `${pair} ${rest}` : pair;
      let body: string;
      if (required.has(props[i]![0])) body = written;
      else {
        const skipped = tail(i + 1, after);
        body = skipped ? `(${written}) | ${skipped}` : `(${written})?`;
      }
      const name = this.rule(body);
      memo.set(key, name);
      return name;
    };
    const inner = tail(0, false);
    return this.rule(inner ? `"{" ws ${inner} ws "}"` : '"{" ws "}"');
  }
}

/** The GBNF grammar (llama.cpp's format) for the schema: every sentence is a JSON text the schema accepts, written compactly. */
export function jsonSchemaGrammar(schema: object): string {
  const g = new Grammar();
  const root = g.value(schema as Schema, '#');
  return g.text(root);
}
