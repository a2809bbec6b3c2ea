/**
 * The system prompt and the tool schemas against the real registry: the edit contract is the
 * spec's text, every tool has a card with a compact schema, JSON mode's schema names every
 * tool, and the prompt leaves room to work in a 4k window.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CODING_TOOLS } from '../../src/engine/tools/index.ts';
import { callJsonSchema, compactArgs, toolSpecs } from '../../src/agent/call-schema.ts';
import { buildPrompt, EDIT_CONTRACT } from '../../src/agent/prompt.ts';
import { EDIT_FORMATS, FORMAT_TOOL } from '../../src/agent/evolve.ts';
import { estimateTokens } from '../../src/agent/context.ts';
import { parseCall } from '../../src/agent/parse.ts';
import { CORPUS_DIR } from '../support/corpus.ts';

const specs = toolSpecs(CODING_TOOLS);
const squash = (s: string) => s.replace(/[`\s]/g, '');

describe('the edit-format contract', () => {
  const spec = readFileSync(resolve(CORPUS_DIR, '../spec/aci-tool-reference.md'), 'utf8');
  it.each(EDIT_CONTRACT.split('\n'))('quotes the spec: %s', (line) => {
    expect(squash(spec)).toContain(squash(line.replace(/^- /, '')));
  });
});

describe('buildPrompt', () => {
  const parts = buildPrompt({
    tools: specs,
    task: 'Fix add.',
    editFormat: 'search_replace',
    skills: [{ name: 'atomic-coding', description: 'Make one small change at a time.' }],
  });

  it('has a card per tool (and done) with its contract and compact arguments', () => {
    for (const t of specs) expect(parts.tools).toContain(`- ${t.name} ${compactArgs(t.schema)}: ${t.summary}`);
    expect(parts.tools).toMatch(/- done \{summary: string\}: Finish the run/);
  });

  it('states one call per turn, the final JSON, the recommended format and the skill cards', () => {
    expect(parts.system).toContain('One tool call per turn');
    expect(parts.system).toContain('Never end on a tool call');
    expect(parts.system).toContain('{"tool": "done", "args": {"summary": "what you changed and how you checked it"}}');
    expect(parts.system).toContain('Preferred edit format: change a unique span with ws_edit');
    expect(parts.system).toContain('- atomic-coding — Make one small change at a time.');
    expect(parts.task).toMatch(/^Task: Fix add\./);
  });

  it('every JSON line of the prompt is a call the parser accepts', () => {
    const lines = `${parts.system}\n${parts.task}`.split('\n').filter((l) => l.trimStart().startsWith('{"'));
    expect(lines.length).toBeGreaterThanOrEqual(3);
    for (const l of lines) expect(parseCall(l).ok).toBe(true);
  });

  it('leaves most of a 4k window for the work', () => {
    const tokens = estimateTokens(parts.system) + estimateTokens(parts.tools) + estimateTokens(parts.task);
    expect(tokens).toBeLessThan(1600);
  });
});

/** The rules of `system` that keep `tool` off existing files. */
function rulesAgainst(system: string, tool: string): string[] {
  return system.split('\n').filter((line) => {
    const only = /change existing files with (.*)$/.exec(line);
    return line.includes(`never by \`${tool}\``) || (only !== null && !only[1]!.includes(`\`${tool}\``));
  });
}

describe('the contract and the recommended format agree', () => {
  it.each(EDIT_FORMATS)('%s: the prompt recommends its tool and no rule forbids it', (format) => {
    const tool = FORMAT_TOOL[format];
    const { system } = buildPrompt({ tools: specs, task: 'Fix add.', editFormat: format });
    expect(system).toMatch(new RegExp(`Preferred edit format: .*\\b${tool}\\b`));
    expect(rulesAgainst(system, tool)).toEqual([]);
  });

  it('the check catches the spec contract next to whole_file advice', () => {
    expect(rulesAgainst(EDIT_CONTRACT, 'ws_write')).toHaveLength(2);
  });

  it('without a recommended format the prompt states the spec contract', () => {
    expect(buildPrompt({ tools: specs, task: 'Fix add.' }).system).toContain(EDIT_CONTRACT);
  });
});

describe('tool schemas', () => {
  it('compactArgs renders optional, enum and array arguments', () => {
    const s = z.object({
      path: z.string(),
      limit: z.number().int().optional(),
      mode: z.enum(['a', 'b']).optional(),
      tags: z.array(z.string()).optional(),
      all: z.boolean().default(false),
    });
    expect(compactArgs(s)).toBe('{path: string, limit?: integer, mode?: "a"|"b", tags?: string[], all?: boolean}');
  });

  it("ws_read's card arguments come from its zod schema", () => {
    const read = specs.find((t) => t.name === 'ws_read')!;
    expect(compactArgs(read.schema)).toBe('{path: string, offset?: integer, limit?: integer}');
  });

  it('the call schema offers every tool by exact name with its arguments, thought first', () => {
    const schema = callJsonSchema(specs) as {
      anyOf: {
        properties: { thought: unknown; tool: { const: string }; args: { $schema?: string } };
        required: string[];
      }[];
    };
    expect(schema.anyOf.map((a) => a.properties.tool.const)).toEqual(specs.map((s) => s.name));
    for (const a of schema.anyOf) {
      expect(Object.keys(a.properties)).toEqual(['thought', 'tool', 'args']);
      expect(a.required).toEqual(['tool', 'args']);
      expect(a.properties.args.$schema).toBeUndefined();
    }
    expect(JSON.stringify(schema)).not.toContain('9007199254740991');
  });
});
