/**
 * The step-1 prompt in real tokens (Qwen's vocabulary with ChatML, as Qwen2.5/Qwen3 read it),
 * with the full and the small tool set, against the targets: ≤ 950 and ≤ 700. And the lean
 * prompt's rules: the worked example's JSON is written once, the task message does not repeat
 * the system prompt's reply example, and every tool card names each argument type once.
 */
import { describe, expect, it } from 'vitest';
import { toolSpecs } from '../../src/agent/call-schema.ts';
import { buildContext } from '../../src/agent/context.ts';
import { buildPrompt } from '../../src/agent/prompt.ts';
import { createEngine } from '../../src/engine/create.ts';
import { SMALL_TOOL_SET, type ToolSet } from '../../src/engine/settings.ts';
import { skillCards } from '../../src/engine/skills/index.ts';
import { MemoryWorkspace } from '../../src/workspace/memory/memory-workspace.ts';
import { realPromptTokens } from '../support/real-tokens.ts';

function step1(set: ToolSet) {
  const engine = createEngine(new MemoryWorkspace(), { tool_set: set });
  const specs = toolSpecs(engine.tools.values());
  const skills = engine.tools.has('ws_skill') ? skillCards() : [];
  const parts = buildPrompt({
    tools: specs,
    task: 'Fix the failing test in test/math.test.js.',
    editFormat: 'search_replace',
    ...(skills.length && { skills }),
  });
  return { specs, parts, messages: buildContext(parts, [], 4096, 512).messages };
}

describe('the step-1 prompt in real Qwen tokens', () => {
  it.each([
    ['full', 950],
    ['small', 700],
  ] as const)('%s tool set: at most %i tokens', (set, target) => {
    expect(realPromptTokens('qwen', step1(set).messages)).toBeLessThanOrEqual(target);
  });

  it('the small set is read, list, grep, edit, patch, write, shell, test and done', () => {
    expect(step1('small').specs.map((s) => s.name)).toEqual([
      ...CODING_ORDER.filter((n) => SMALL_TOOL_SET.includes(n)),
      'done',
    ]);
  });
});

const CODING_ORDER = step1('full').specs.map((s) => s.name);

describe('a lean prompt', () => {
  const { parts } = step1('full');

  it('writes the worked edit once', () => {
    const edits = `${parts.system}\n${parts.task}`.split('\n').filter((l) => l.includes('"tool": "ws_edit"'));
    expect(edits).toHaveLength(1);
  });

  it('the task message does not repeat the reply example', () => {
    expect(parts.task).not.toMatch(/"tool"/);
  });

  it.each(parts.tools.split('\n').slice(1))('names each argument type once: %s', (card) => {
    for (const types of card.match(/: ([\w"[\]|]+)[,}]/g) ?? []) {
      const alts = types.slice(2, -1).split('|');
      expect(new Set(alts).size).toBe(alts.length);
    }
  });
});
