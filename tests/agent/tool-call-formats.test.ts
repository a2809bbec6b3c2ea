/**
 * The tool-call format corpus: on the held-out cases (written before the parser, never tuned
 * on) at least 97% give the expected call; no case anywhere gives a wrong call; every call
 * names the format it was read in; and every recorded real output (the steps of the lessons
 * and examples) still parses to the call recorded with it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCall } from '../../src/agent/parse.ts';
import { CORPUS_TOOLS, formatCases, scoreSplit, type CallOf } from '../support/tool-call-corpus.ts';

const cases = formatCases();
const callOf: CallOf = (raw) => {
  const o = parseCall(raw, { tools: CORPUS_TOOLS });
  return o.ok ? { tool: o.call.tool, args: o.call.args } : null;
};

describe('tool-call format corpus', () => {
  it('has both splits, every case naming its source', () => {
    expect(cases.filter((c) => c.split === 'held-out').length).toBeGreaterThanOrEqual(40);
    expect(cases.filter((c) => c.split === 'dev').length).toBeGreaterThanOrEqual(30);
    for (const c of cases) expect(c.source, c.id).toMatch(/llama\.cpp|vLLM|Ollama|SGLang/);
  });

  it('gives the expected call on at least 97% of the held-out cases', () => {
    const s = scoreSplit(
      cases.filter((c) => c.split === 'held-out'),
      callOf,
    );
    expect(s.right / s.total, s.misses.join('\n')).toBeGreaterThanOrEqual(0.97);
  });

  it('gives no wrong call on any case', () => {
    expect(scoreSplit(cases, callOf).wrong).toEqual([]);
  });

  it('names the format of every call it gives', () => {
    const named = cases.flatMap((c) => {
      const o = parseCall(c.raw, { tools: CORPUS_TOOLS });
      return o.ok ? [[c.id, o.format]] : [];
    });
    expect(named.length).toBeGreaterThanOrEqual(80);
    expect(named).toEqual(named.map(([id]) => [id, cases.find((c) => c.id === id)!.format]));
  });

  it.each(cases.filter((c) => !c.expect && c.format))(
    '$id is no call, and the retry names $format and the JSON shape',
    (c) => {
      const o = parseCall(c.raw, { tools: CORPUS_TOOLS });
      if (o.ok) throw new Error(`expected no call, got ${o.call.tool}`);
      expect(o.message).toContain('{"tool": "ws_read", "args": {"path": "src/index.js"}}');
    },
  );
});

interface Step {
  raw: string;
  call?: { tool: string; args: unknown };
}

const ROOT = join(import.meta.dirname, '../..');
const recorded = ['lessons', 'examples'].flatMap((dir) =>
  readdirSync(join(ROOT, dir))
    .filter((f) => f.endsWith('.session.json'))
    .flatMap((f) =>
      (JSON.parse(readFileSync(join(ROOT, dir, f), 'utf8')) as { steps: Step[] }).steps.map((s, i) => ({
        name: `${dir}/${f}#${i + 1}`,
        ...s,
      })),
    ),
);

describe('recorded real outputs', () => {
  it('are there to check', () => expect(recorded.length).toBeGreaterThan(50));

  it.each(recorded)('$name parses to its recorded call', (s) => {
    const o = parseCall(s.raw, { tools: CORPUS_TOOLS });
    if (!s.call) return expect(o.ok).toBe(false);
    if (!o.ok) throw new Error(o.message);
    expect({ tool: o.call.tool, args: o.call.args }).toEqual(s.call);
  });
});
