/**
 * Generates src/engine/skills/skills.json from the Markdown files in skills/ (one skill per
 * file, front matter `name` + `description`). Run after editing a skill:
 *
 *   npx tsx scripts/build-skills.ts
 *
 * Every file is parsed first, so a malformed skill fails here rather than in the app. A unit
 * test (src/engine/skills/skills.test.ts) fails while the JSON is out of date.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseSkill } from '../src/engine/skills/skill.ts';

const REPO = resolve(fileURLToPath(import.meta.url), '../..');
/** Where the skill sources live. */
export const SKILLS_DIR = join(REPO, 'skills');
/** The generated module the engine imports. */
export const SKILLS_JSON = join(REPO, 'src/engine/skills/skills.json');

/** file name → text of every `*.md` in SKILLS_DIR, sorted by file name; throws for a malformed skill. */
export function collectSkills(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(SKILLS_DIR)
    .filter((n) => n.endsWith('.md'))
    .sort()) {
    const text = readFileSync(join(SKILLS_DIR, name), 'utf8');
    const skill = parseSkill(text, name);
    if (`${skill.name}.md` !== name)
      throw new Error(`skill ${name}: the file must be named after the skill (${skill.name}.md)`);
    files[name] = text;
  }
  return files;
}

/** The exact text written to SKILLS_JSON. */
export function skillsJson(files: Record<string, string>): string {
  return `${JSON.stringify(files, null, 2)}\n`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const files = collectSkills();
  writeFileSync(SKILLS_JSON, skillsJson(files));
  console.log(`${Object.keys(files).length} skills → ${SKILLS_JSON}`);
}
