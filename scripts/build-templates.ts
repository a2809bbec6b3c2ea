/**
 * Generates src/workspace/templates/<id>.json from src/workspace/templates/<id>/ (meta.json +
 * the real files under files/). Run after editing a template's files:
 *
 *   npx tsx scripts/build-templates.ts
 *
 * A unit test (src/workspace/templates/templates.test.ts) fails while a JSON is out of date.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { hashTemplateFiles, type Template } from '../src/workspace/templates/template.ts';

/** Where template sources and their generated JSON live. */
export const TEMPLATES_DIR = resolve(fileURLToPath(import.meta.url), '../../src/workspace/templates');

/** Template ids: every directory under TEMPLATES_DIR that has a files/ folder. */
export function templateIds(): string[] {
  return readdirSync(TEMPLATES_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .filter((id) => {
      try {
        return statSync(join(TEMPLATES_DIR, id, 'files')).isDirectory();
      } catch {
        return false;
      }
    })
    .sort();
}

function walk(dir: string, out: string[]): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else if (entry.isFile()) out.push(full);
    else throw new Error(`template file ${full} is neither a file nor a directory; templates hold plain files only`);
  }
}

/** Reads one template's sources into the Template record the JSON holds. */
export async function collectTemplate(id: string): Promise<Template> {
  const root = join(TEMPLATES_DIR, id);
  const meta = JSON.parse(readFileSync(join(root, 'meta.json'), 'utf8')) as Pick<
    Template,
    'title' | 'description' | 'task'
  >;
  const paths: string[] = [];
  walk(join(root, 'files'), paths);
  const files: Record<string, string> = {};
  for (const full of paths.sort()) {
    // Workspace paths are POSIX whatever the host OS is.
    files[relative(join(root, 'files'), full).split(sep).join('/')] = readFileSync(full, 'utf8');
  }
  return {
    id,
    title: meta.title,
    description: meta.description,
    task: meta.task,
    files,
    hash: await hashTemplateFiles(files),
  };
}

/** The exact text written to <id>.json. */
export function templateJson(t: Template): string {
  return `${JSON.stringify(t, null, 2)}\n`;
}

export function templateJsonPath(id: string): string {
  return join(TEMPLATES_DIR, `${id}.json`);
}

async function main(): Promise<void> {
  for (const id of templateIds()) {
    const t = await collectTemplate(id);
    writeFileSync(templateJsonPath(id), templateJson(t));
    console.log(`${id}: ${Object.keys(t.files).length} files, ${t.hash}`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}
