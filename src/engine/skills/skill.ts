/**
 * A skill: a short behavioural guide shipped as a Markdown file whose front matter gives a
 * `name` and a one-line `description`. The prompt shows only the card (name + description);
 * the body is pulled on demand with ws_skill, because several full directives at once degrade
 * a small model's instruction following.
 */

export interface Skill {
  /** kebab-case, unique: what ws_skill {"name": …} takes. */
  readonly name: string;
  /** One line: when the skill applies. */
  readonly description: string;
  /** The Markdown body after the front matter. */
  readonly body: string;
}

const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** A front-matter value, unquoted when it is wrapped in matching quotes. */
function unquote(value: string): string {
  const v = value.trim();
  if (v.length >= 2 && (v[0] === '"' || v[0] === "'") && v[v.length - 1] === v[0]) return v.slice(1, -1);
  return v;
}

/**
 * Parses a skill file. `source` (the file name) only names the file in errors. Throws for a
 * malformed file: skills are shipped with the app, so a bad one is a build error, not input.
 */
export function parseSkill(markdown: string, source: string): Skill {
  const text = markdown.replace(/\r\n/g, '\n');
  const m = /^---\n([\s\S]*?)\n---\n?([\s\S]*)$/.exec(text);
  if (!m) throw new Error(`skill ${source}: must start with a front-matter block (--- / name: … / description: … / ---)`);
  const fields = new Map<string, string>();
  for (const line of m[1]!.split('\n')) {
    if (line.trim() === '') continue;
    const kv = /^([A-Za-z_][\w-]*)\s*:\s*(.*)$/.exec(line);
    if (!kv) throw new Error(`skill ${source}: front-matter line ${JSON.stringify(line)} is not "key: value"`);
    fields.set(kv[1]!, unquote(kv[2]!));
  }
  const name = fields.get('name') ?? '';
  const description = fields.get('description') ?? '';
  const body = m[2]!.trim();
  if (!NAME.test(name)) throw new Error(`skill ${source}: name ${JSON.stringify(name)} must be kebab-case (a-z, 0-9, -)`);
  if (description === '') throw new Error(`skill ${source}: description is missing`);
  if (body === '') throw new Error(`skill ${source}: the body after the front matter is empty`);
  return { name, description, body };
}
