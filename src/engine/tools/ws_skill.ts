/**
 * ws_skill: pulls a skill's full body on demand. The prompt lists skills only as cards (name +
 * description) — progressive disclosure, because several full behavioural directives at once
 * degrade a small model's instruction following. An unknown name is answered with the list of
 * skills that exist, so the next call can succeed.
 */
import { z } from 'zod';
import { defineTool, type ToolDef } from '../tool.ts';
import { fail, ok } from '../result.ts';
import { BUNDLED_SKILLS } from '../skills/bundled.ts';
import { formatSkillCards, type SkillRegistry } from '../skills/registry.ts';

const schema = z.object({
  name: z.string().describe('The skill to read, as listed in the skill cards, e.g. "atomic-coding"'),
});

/** ws_skill over `registry` (the orchestrator passes the skills a session offers). */
export function createWsSkill(registry: SkillRegistry): ToolDef<z.output<typeof schema>> {
  return defineTool({
    name: 'ws_skill',
    summary: "Pull a skill's full body on demand",
    writes: false,
    schema,
    aliases: { skill: 'name', id: 'name', skill_name: 'name' },
    async run(args) {
      const skill = registry.get(args.name);
      if (skill) return ok(`skill ${skill.name} — ${skill.description}\n\n${skill.body}`);
      const cards = registry.cards();
      if (cards.length === 0)
        return fail('No skills are available in this session. Carry on with the task using the other tools.');
      const asked = args.name.trim() === '' ? 'No skill name given.' : `Unknown skill ${JSON.stringify(args.name)}.`;
      return fail(
        `${asked} Available skills:\n${formatSkillCards(cards)}\n` +
          `Read one with ws_skill ${JSON.stringify({ name: cards[0]!.name })}, using a name from this list.`,
        [{ kind: 'hint', text: `unknown skill ${args.name}`, detail: 'unknown-skill' }],
      );
    },
  });
}

/** ws_skill over the shipped skills. */
export const wsSkill = createWsSkill(BUNDLED_SKILLS);
