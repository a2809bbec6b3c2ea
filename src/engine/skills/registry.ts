/**
 * The skills a session offers, by name. Lookups forgive the spellings small models produce
 * (case, `_` for `-`, a `.md` suffix, surrounding spaces); anything else is a miss, which
 * ws_skill answers with the list of skills that exist.
 */
import type { Skill } from './skill.ts';

/** name + description: what the prompt shows for a skill. */
export interface SkillCard {
  readonly name: string;
  readonly description: string;
}

/** The canonical spelling of a requested name. */
export function normalizeSkillName(raw: string): string {
  return raw
    .trim()
    .toLowerCase()
    .replace(/\.md$/, '')
    .replace(/[_\s]+/g, '-');
}

export class SkillRegistry {
  private readonly byName: ReadonlyMap<string, Skill>;

  /** Throws for two skills with one name (a packaging error). */
  constructor(readonly skills: readonly Skill[]) {
    const map = new Map<string, Skill>();
    for (const s of skills) {
      if (map.has(s.name)) throw new Error(`SkillRegistry: two skills are named ${JSON.stringify(s.name)}`);
      map.set(s.name, s);
    }
    this.byName = map;
  }

  /** The skill a (possibly misspelt) name means, or undefined. */
  get(name: string): Skill | undefined {
    return this.byName.get(normalizeSkillName(name));
  }

  /** Every skill's card, sorted by name. */
  cards(): SkillCard[] {
    return [...this.skills].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).map((s) => ({ name: s.name, description: s.description }));
  }
}

/** Cards as prompt lines: `- name — description`. */
export function formatSkillCards(cards: readonly SkillCard[]): string {
  return cards.map((c) => `- ${c.name} — ${c.description}`).join('\n');
}
