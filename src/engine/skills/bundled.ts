/**
 * The skills shipped with the app. skills.json is generated from the Markdown files in the
 * repository's skills/ directory by scripts/build-skills.ts (a unit test fails while it is out
 * of date); importing JSON keeps this module loadable by Vite, a browser worker and Node alike.
 */
import skillFiles from './skills.json' with { type: 'json' };
import { parseSkill } from './skill.ts';
import { SkillRegistry, type SkillCard } from './registry.ts';

/** file name → Markdown text, as generated. */
export const SKILL_FILES: Readonly<Record<string, string>> = skillFiles;

/** Every shipped skill. */
export const BUNDLED_SKILLS = new SkillRegistry(Object.entries(SKILL_FILES).map(([file, text]) => parseSkill(text, file)));

/** The shipped skills' cards (name + description), for the prompt's skill section. */
export function skillCards(registry: SkillRegistry = BUNDLED_SKILLS): SkillCard[] {
  return registry.cards();
}
