/**
 * ws_skill: a known name (or a forgiving spelling of it) returns the body; an unknown or empty
 * name returns the list of available skills with a call to copy; an empty registry says so.
 */
import { describe, expect, it } from 'vitest';
import { Engine } from '../engine.ts';
import { MemoryWorkspace } from '../../workspace/memory/memory-workspace.ts';
import { BUNDLED_SKILLS } from '../skills/bundled.ts';
import { SkillRegistry, formatSkillCards } from '../skills/registry.ts';
import { createWsSkill, wsSkill } from './ws_skill.ts';
import type { ToolDef } from '../tool.ts';

function engine(tool: ToolDef<any> = wsSkill): Engine {
  return new Engine({ workspace: new MemoryWorkspace(), tools: [tool], settings: { loop_guard: false } });
}

const atomic = BUNDLED_SKILLS.get('atomic-coding')!;
const LIST = `Available skills:\n${formatSkillCards(BUNDLED_SKILLS.cards())}\nRead one with ws_skill {"name":"atomic-coding"}, using a name from this list.`;

const rows: Array<[string, Record<string, unknown>, boolean, string]> = [
  [
    'a known name returns the body',
    { name: 'atomic-coding' },
    true,
    `skill atomic-coding — ${atomic.description}\n\n${atomic.body}`,
  ],
  [
    'a forgiving spelling finds it',
    { name: 'Atomic_Coding' },
    true,
    `skill atomic-coding — ${atomic.description}\n\n${atomic.body}`,
  ],
  [
    'the alias skill is accepted',
    { skill: 'atomic-coding' },
    true,
    `skill atomic-coding — ${atomic.description}\n\n${atomic.body}`,
  ],
  ['an unknown name lists the skills', { name: 'testing' }, false, `Unknown skill "testing". ${LIST}`],
  ['an empty name lists the skills', { name: '' }, false, `No skill name given. ${LIST}`],
];

describe('ws_skill', () => {
  it.each(rows)('%s', async (_n, args, ok, text) => {
    const r = await engine().call('ws_skill', args);
    expect(r.ok, r.text).toBe(ok);
    expect(r.text).toBe(text);
  });

  it('an empty registry says there are no skills', async () => {
    const r = await engine(createWsSkill(new SkillRegistry([]))).call('ws_skill', { name: 'atomic-coding' });
    expect(r).toMatchObject({
      ok: false,
      text: 'No skills are available in this session. Carry on with the task using the other tools.',
    });
  });
});
