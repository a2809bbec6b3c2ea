/**
 * Skills: the front-matter parser (one row per rule), the registry's forgiving lookup, the
 * shipped set (generated JSON up to date, the promised skills present, bodies that name real
 * tools), and the cards the prompt shows.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { collectSkills, skillsJson, SKILLS_JSON } from '../../../scripts/build-skills.ts';
import { parseSkill } from './skill.ts';
import { SkillRegistry, formatSkillCards, normalizeSkillName } from './registry.ts';
import { BUNDLED_SKILLS, skillCards } from './bundled.ts';
import { CODING_TOOLS } from '../tools/index.ts';

const GOOD = '---\nname: my-skill\ndescription: Does a thing.\n---\n# Body\n\nText.\n';

describe('parseSkill', () => {
  it('reads name, description and the trimmed body', () => {
    expect(parseSkill(GOOD, 'my-skill.md')).toEqual({ name: 'my-skill', description: 'Does a thing.', body: '# Body\n\nText.' });
  });

  it.each([
    ['CRLF line endings', GOOD.replace(/\n/g, '\r\n'), 'my-skill'],
    ['a quoted description', '---\nname: q\ndescription: "Quoted: yes"\n---\nbody', 'q'],
  ])('accepts %s', (_n, text, name) => {
    expect(parseSkill(text, 'x.md').name).toBe(name);
  });

  it.each([
    ['no front matter', '# just markdown', /must start with a front-matter block/],
    ['a line that is not key: value', '---\nname: a\njust words\n---\nbody', /is not "key: value"/],
    ['a name that is not kebab-case', '---\nname: My Skill\ndescription: d\n---\nbody', /must be kebab-case/],
    ['a missing description', '---\nname: a\n---\nbody', /description is missing/],
    ['an empty body', '---\nname: a\ndescription: d\n---\n\n', /body after the front matter is empty/],
  ])('throws for %s, naming the file', (_n, text, message) => {
    expect(() => parseSkill(text, 'bad.md')).toThrow(message);
    expect(() => parseSkill(text, 'bad.md')).toThrow(/bad\.md/);
  });
});

describe('SkillRegistry', () => {
  const registry = new SkillRegistry([parseSkill(GOOD, 'my-skill.md')]);

  it.each(['my-skill', 'My-Skill', ' my_skill ', 'my skill', 'my-skill.md'])('finds %j', (name) => {
    expect(registry.get(name)?.name).toBe('my-skill');
  });

  it.each(['my', 'skill', ''])('misses %j', (name) => {
    expect(registry.get(name)).toBeUndefined();
  });

  it('refuses two skills with one name', () => {
    const s = parseSkill(GOOD, 'a.md');
    expect(() => new SkillRegistry([s, s])).toThrow(/two skills are named "my-skill"/);
  });

  it('normalizes names', () => {
    expect(normalizeSkillName('  Atomic_Coding.md ')).toBe('atomic-coding');
  });
});

describe('the shipped skills', () => {
  it('skills.json is up to date with skills/*.md (regenerate: npx tsx scripts/build-skills.ts)', () => {
    expect(readFileSync(SKILLS_JSON, 'utf8')).toBe(skillsJson(collectSkills()));
  });

  it('include the promised skills', () => {
    expect(BUNDLED_SKILLS.cards().map((c) => c.name)).toEqual(['atomic-coding', 'editing-with-ws-edit', 'minimal-fix', 'reading-a-failing-test']);
  });

  it.each(BUNDLED_SKILLS.skills.map((s) => [s.name, s] as const))('%s names only tools that exist, and is short', (_n, skill) => {
    const tools = new Set(CODING_TOOLS.map((t) => t.name));
    const named = [...skill.body.matchAll(/`((?:ws|git)_[a-z_]+)/g)].map((m) => m[1]!);
    expect(named.length).toBeGreaterThan(0);
    for (const name of named) expect(tools, `${skill.name} names ${name}`).toContain(name);
    // A body is pulled into a small context window: keep it well under the 8000-character result cap.
    expect(skill.body.length).toBeLessThan(2000);
    expect(skill.description.length).toBeLessThan(120);
  });

  it('skillCards gives name + description, and formatSkillCards the prompt lines', () => {
    const cards = skillCards();
    expect(cards[0]).toEqual({ name: 'atomic-coding', description: 'Work in small verified steps — one change, then check it, before the next.' });
    expect(formatSkillCards(cards).split('\n')[0]).toBe('- atomic-coding — Work in small verified steps — one change, then check it, before the next.');
  });
});
