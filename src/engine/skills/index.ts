/** Skills: the model, the registry and the shipped set (re-exports only). */
export { parseSkill, type Skill } from './skill.ts';
export { SkillRegistry, formatSkillCards, normalizeSkillName, type SkillCard } from './registry.ts';
export { BUNDLED_SKILLS, SKILL_FILES, skillCards } from './bundled.ts';
