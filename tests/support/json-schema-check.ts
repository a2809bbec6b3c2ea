/**
 * Checks a JSON value against a JSON schema, for the keywords the tool schemas use (the same
 * set src/agent/json-grammar.ts turns into a grammar): type, properties, required,
 * additionalProperties, items, anyOf/oneOf, const, enum, minLength, minimum, exclusiveMinimum.
 * Returns the first problem found, or null. Independent of the grammar, so a test can hold
 * one against the other.
 */
type Schema = { readonly [key: string]: unknown };

const typeOf = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v;

export function schemaProblem(value: unknown, schema: object, at = '#'): string | null {
  const s = schema as Schema;
  if ('const' in s && JSON.stringify(value) !== JSON.stringify(s.const)) return `${at}: not ${JSON.stringify(s.const)}`;
  if (Array.isArray(s.enum) && !s.enum.some((e) => JSON.stringify(e) === JSON.stringify(value)))
    return `${at}: not one of the enum`;
  const alts = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  if (alts && !alts.some((alt) => schemaProblem(value, alt, at) === null)) return `${at}: matches no alternative`;
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? s.type : [s.type];
    const t = typeOf(value);
    if (!types.includes(t) && !(t === 'integer' && types.includes('number')))
      return `${at}: ${t}, not ${types.join('|')}`;
  }
  if (typeof value === 'string' && typeof s.minLength === 'number' && [...value].length < s.minLength)
    return `${at}: shorter than ${s.minLength}`;
  if (typeof value === 'number') {
    if (typeof s.minimum === 'number' && value < s.minimum) return `${at}: below ${s.minimum}`;
    if (typeof s.exclusiveMinimum === 'number' && value <= s.exclusiveMinimum)
      return `${at}: not above ${s.exclusiveMinimum}`;
  }
  if (Array.isArray(value) && s.items) {
    for (const [i, item] of value.entries()) {
      const p = schemaProblem(item, s.items as Schema, `${at}/${i}`);
      if (p) return p;
    }
  }
  if (typeOf(value) === 'object') {
    const obj = value as Record<string, unknown>;
    const props = (s.properties ?? {}) as Record<string, Schema>;
    for (const key of (s.required ?? []) as string[]) if (!(key in obj)) return `${at}: ${key} is missing`;
    for (const [key, v] of Object.entries(obj)) {
      const p = props[key];
      if (p) {
        const problem = schemaProblem(v, p, `${at}/${key}`);
        if (problem) return problem;
      } else if (s.additionalProperties === false) return `${at}: ${key} is not allowed`;
    }
  }
  return null;
}
