import { describe, expect, it } from 'vitest';
import { createEngine } from '../engine/create.ts';
import { MemoryWorkspace } from '../workspace/memory/memory-workspace.ts';
import { callJsonSchema, toolSpecs } from './call-schema.ts';
import { jsonSchemaGrammar } from './json-grammar.ts';

// What llama.cpp makes of the grammar is tested on a real engine (tests/agent/gguf-node.test.ts).
describe('jsonSchemaGrammar', () => {
  it('covers the call schema of every tool', () => {
    const specs = toolSpecs(createEngine(new MemoryWorkspace()).tools.values());
    const grammar = jsonSchemaGrammar(callJsonSchema(specs));
    expect(grammar.startsWith('root ::= ')).toBe(true);
    for (const s of specs) expect(grammar).toContain(`"\\"${s.name}\\""`);
  });

  it.each([
    [{ type: 'string', pattern: '^a' }, /the keyword "pattern" at # is not supported/],
    [
      { type: 'object', properties: { n: { type: 'integer', minimum: 5 } } },
      /a lower bound of 5 at #\/properties\/n is not supported/,
    ],
    [{ anyOf: [{ type: 'date' }] }, /the type "date" at #\/anyOf\/0 is not supported/],
  ])('refuses what it cannot constrain: %j', (schema, message) => {
    expect(() => jsonSchemaGrammar(schema)).toThrow(message);
  });

  it.each([
    [{ type: 'integer', minimum: 0 }, 'root ::= natural'],
    [{ type: 'integer', exclusiveMinimum: 0 }, 'root ::= positive'],
    [{ const: 'a"b' }, 'root ::= "\\"a\\\\\\"b\\""'],
    [{ type: 'object', properties: {} }, 'r0 ::= "{" ws "}"'],
    [{ type: 'object', properties: { a: { type: 'boolean' } }, required: ['a'] }, 'r0 ::= "\\"a\\"" ws ":" ws boolean'],
    [{ type: 'object', properties: { a: { type: 'boolean' } } }, 'r0 ::= ("\\"a\\"" ws ":" ws boolean)?'],
  ])('%j → %s', (schema, line) => {
    expect(jsonSchemaGrammar(schema).split('\n')).toContain(line);
  });
});
