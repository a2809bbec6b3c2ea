/**
 * Native-format values follow the tool's schema, measured on held-out cases
 * (tests/fixtures/native-typed-values.json: calls in the Qwen3-Coder, Nemotron, Seed-OSS and
 * MiniCPM formats, written from each format's documented syntax before the conversion was tuned):
 * at least 97% give the expected call, and none gives a wrong one.
 */
import { describe, expect, it } from 'vitest';
import { argsJsonSchema, toolSpecs } from '../../src/agent/call-schema.ts';
import { parseCall } from '../../src/agent/parse.ts';
import { createEngine } from '../../src/engine/create.ts';
import { MemoryWorkspace } from '../../src/workspace/memory/memory-workspace.ts';
import { formatCases, scoreSplit, type CallOf } from '../support/tool-call-corpus.ts';

const cases = formatCases('native-typed-values.json');
const specs = toolSpecs(createEngine(new MemoryWorkspace()).tools.values());
const schemas = new Map(specs.map((s) => [s.name, argsJsonSchema(s.schema)]));
const tools = specs.map((s) => s.name);
const callOf: CallOf = (raw) => {
  const o = parseCall(raw, { tools, schemas });
  return o.ok ? { tool: o.call.tool, args: o.call.args } : null;
};

describe('native-format values typed by the schema: held-out cases', () => {
  it('has at least 40 cases over the four formats', () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
    for (const source of ['Qwen3-Coder', 'Nemotron', 'Seed-OSS', 'MiniCPM'])
      expect(cases.filter((c) => c.source.startsWith(source)).length, source).toBeGreaterThanOrEqual(8);
  });

  it('gives the expected call on at least 97% and a wrong call on none', () => {
    const s = scoreSplit(cases, callOf);
    console.log(
      `native-format typed values, held out: ${s.right}/${s.total} expected (${((100 * s.right) / s.total).toFixed(1)}%), ${s.wrong.length} wrong`,
    );
    expect(s.wrong, s.misses.join('\n')).toEqual([]);
    expect(s.right / s.total, s.misses.join('\n')).toBeGreaterThanOrEqual(0.97);
  });
});
