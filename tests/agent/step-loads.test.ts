/**
 * A step whose tool call loaded a part of the engine on first use says so in its timing; the
 * steps after it, which find the part loaded, say nothing.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runLoop } from '../../src/agent/loop.ts';
import { ScriptedModel } from '../../src/agent/models/scripted.ts';
import { loadOnce } from '../../src/engine/lazy-load.ts';
import { ok } from '../../src/engine/result.ts';
import { defineTool } from '../../src/engine/tool.ts';
import { call, DONE, engineWith } from './support.ts';

const loadPart = loadOnce('a test part', async () => 'loaded');

const usePart = defineTool({
  name: 'use_part',
  summary: 'Uses a part loaded on first use',
  writes: false,
  schema: z.object({ n: z.number() }),
  run: async () => ok(await loadPart()),
});

describe('first-use loads in step timings', () => {
  it('only the step that loaded the part names it, with the time it took', async () => {
    const { engine } = engineWith([usePart]);
    const model = new ScriptedModel([call('use_part', { n: 1 }), call('use_part', { n: 2 }), DONE]);
    const r = await runLoop({ engine, model, task: 'Use the part twice.' });
    const [first, second] = r.steps;
    expect(first!.observation).toBe('loaded');
    expect(first!.timing.loads?.map((l) => l.what)).toEqual(['a test part']);
    expect(first!.timing.loads![0]!.ms).toBeGreaterThanOrEqual(0);
    expect(second!.timing.loads).toBeUndefined();
  });
});
