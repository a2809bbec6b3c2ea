/**
 * `npx tsx scripts/make-examples.ts`: writes the example sessions in examples/. Each is a
 * scripted run of the bundled starter task through the real loop and engine: only the model's
 * raw outputs are written here, every result and hash is computed by the engine, in a workspace
 * that runs the project's tests (as the lessons are recorded), so each example ends on its
 * final test run's real tally. Tests replay
 * every example and fail when one is out of date; the bench measures the 30-step one's link
 * and replays the 100-step script.
 */
import { writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ScriptedModel } from '../src/agent/models/scripted.ts';
import { createEngine } from '../src/engine/create.ts';
import { contentTag } from '../src/engine/text.ts';
import { useNodeWasm } from '../src/platform/node-wasm.ts';
import { recordRun } from '../src/session/recorder.ts';
import type { Session } from '../src/session/record.ts';
import { STARTER_TEMPLATE } from '../src/workspace/templates/index.ts';
import { seedTemplateRepo } from '../src/workspace/git-seed.ts';
import { lessonWorkspace } from './make-lessons.ts';

/** Where the examples live, from the repository root. */
export const EXAMPLES_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../examples');
/** The command that rewrites them (quoted in the out-of-date test's message). */
export const REGENERATE = 'npx tsx scripts/make-examples.ts';
/** A fixed start time, so regenerating unchanged examples writes identical files. */
const CREATED_AT = '2025-01-01T00:00:00.000Z';

export interface ExampleScript {
  /** File name without `.session.json`. */
  readonly name: string;
  /** The raw model outputs, one per step. */
  readonly outputs: readonly string[];
}

/** One raw output as a model in JSON mode writes it. */
function call(tool: string, args: object, thought?: string): string {
  return JSON.stringify(thought ? { thought, tool, args } : { tool, args });
}

const NUMBERS = STARTER_TEMPLATE.files['src/numbers.js']!;

/** Read, then an edit whose old_str drifted (the block indented by 4 instead of 2) that the ladder's indent rung still places, then done. */
const DRIFTED_EDIT: ExampleScript = {
  name: 'drifted-edit',
  outputs: [
    call('ws_read', { path: 'src/strings.js' }, 'truncate looks off by one; read it first'),
    call(
      'ws_edit',
      {
        path: 'src/strings.js',
        old_str: "    if (text.length <= max) return text;\n    return text.slice(0, max) + '…';",
        new_str: "    if (text.length <= max) return text;\n    return text.slice(0, max - 1) + '…';",
      },
      'keep max characters in all, the ellipsis included',
    ),
    call('done', { summary: 'truncate now keeps the ellipsis within max characters (slice to max - 1).' }),
  ],
};

/** A realistic 30-step session: exploring, the fix, a scratch note moved and deleted, a hash-anchored edit, one reply without a call, done. */
const THIRTY_STEPS: ExampleScript = {
  name: 'thirty-steps',
  outputs: [
    call('ws_list', { path: '.' }, 'see the project'),
    call('ws_read', { path: 'README.md' }),
    call('ws_read', { path: 'package.json' }),
    call('ws_glob', { pattern: '**/*.js' }),
    call('ws_read', { path: 'test/strings.test.js' }, 'which test fails?'),
    call('ws_grep', { pattern: 'truncate', path: 'src' }),
    call('ws_read', { path: 'src/strings.js', offset: 19, limit: 8 }),
    call('ws_grep', { pattern: "'…'", glob: '*.js' }),
    call('ws_read', { path: 'src/index.js' }),
    call(
      'ws_edit',
      {
        path: 'src/strings.js',
        old_str: "  return text.slice(0, max) + '…';",
        new_str: "  return text.slice(0, max - 1) + '…';",
      },
      'the ellipsis counts toward max',
    ),
    call('ws_read', { path: 'src/strings.js', offset: 23, limit: 4 }),
    call('ws_read', { path: 'test/numbers.test.js' }),
    call('ws_read', { path: 'src/numbers.js' }),
    call('ws_grep', { pattern: 'RangeError', path: 'src' }),
    call('ws_list', { path: 'test' }),
    call('ws_grep', { pattern: 'WORDCOUNT', case_insensitive: true }),
    call('ws_write', { path: 'notes.md', content: '# Notes\n\n- truncate: slice to max - 1 so the ellipsis fits\n' }),
    call('ws_read', { path: 'notes.md' }),
    call('ws_edit', {
      path: 'notes.md',
      old_str: '- truncate: slice to max - 1 so the ellipsis fits\n',
      new_str: '- truncate: slice to max - 1 so the ellipsis fits\n- numbers: nothing to change\n',
    }),
    call('ws_mv', { from: 'notes.md', to: 'docs/notes.md' }),
    call('ws_list', { path: 'docs' }),
    call('ws_delete', { path: 'docs/notes.md' }, 'the notes were scratch; the repo should not keep them'),
    call('ws_glob', { pattern: 'docs/**' }),
    // Trailing spaces the file does not have: the ladder's trailing-whitespace rung places it.
    call('ws_edit', {
      path: 'src/strings.js',
      old_str: " * characters is an ellipsis: truncate('hello world', 8) === 'hello w…'.   \n */",
      new_str: " * characters is an ellipsis: truncate('hello world', 8) === 'hello w…' (8 characters).\n */",
    }),
    call('ws_grep', { pattern: 'max - 1' }),
    call('ws_read', { path: 'src/numbers.js', offset: 17, limit: 6 }),
    call('ws_replace_lines', {
      path: 'src/numbers.js',
      start: 18,
      end: 18,
      new: '/** The arithmetic mean; an empty list has no mean, so it throws. */',
      hash: contentTag(NUMBERS),
    }),
    call('ws_read', { path: 'src/numbers.js', offset: 17, limit: 4 }),
    'The fix is in place and the comments are clearer. I think we are done here.',
    call('done', {
      summary:
        'Fixed truncate (slice to max - 1 so the result, ellipsis included, has at most max characters); clarified two comments.',
    }),
  ],
};

/** Every example written to examples/. */
export const EXAMPLE_SCRIPTS: readonly ExampleScript[] = [DRIFTED_EDIT, THIRTY_STEPS];

/**
 * A 100-step script for the replay-time bench: the truncate fix (so the final test run passes,
 * with the same output on every runtime), then reads, greps and a counter edited step by step,
 * then done.
 */
export function hundredStepScript(): ExampleScript {
  const outputs: string[] = [
    call('ws_read', { path: 'src/strings.js' }),
    call('ws_edit', {
      path: 'src/strings.js',
      old_str: "  return text.slice(0, max) + '…';",
      new_str: "  return text.slice(0, max - 1) + '…';",
    }),
    call('ws_write', { path: 'counter.txt', content: 'count: 0\n' }),
  ];
  const files = ['src/strings.js', 'src/numbers.js', 'test/strings.test.js', 'test/numbers.test.js', 'README.md'];
  const words = ['export', 'function', 'return', 'text', 'max', 'value', 'test', 'assert'];
  for (let i = 1; outputs.length < 99; i++) {
    outputs.push(call('ws_read', { path: files[i % files.length]!, offset: (i % 12) + 1, limit: 10 }));
    outputs.push(call('ws_grep', { pattern: words[i % words.length]!, path: i % 2 ? 'src' : 'test' }));
    outputs.push(call('ws_edit', { path: 'counter.txt', old_str: `count: ${i - 1}\n`, new_str: `count: ${i}\n` }));
  }
  outputs.length = 99;
  outputs.push(call('done', { summary: 'counted to the end' }));
  return { name: 'hundred-steps', outputs };
}

/** Runs `script` on a fresh copy of the starter template through the real loop and engine, its tests run in the host sandbox. */
export async function buildExample(script: ExampleScript): Promise<Session> {
  const ws = await lessonWorkspace();
  await seedTemplateRepo(ws, STARTER_TEMPLATE);
  const { session } = await recordRun({
    engine: createEngine(ws),
    model: new ScriptedModel(script.outputs, { name: script.name }),
    task: STARTER_TEMPLATE.task,
    maxSteps: script.outputs.length,
    createdAt: CREATED_AT,
  });
  return session;
}

/** The file text of an example: the file form, pretty-printed. */
export function exampleFileText(session: Session): string {
  return `${JSON.stringify(session, null, 2)}\n`;
}

/** The path of example `name`. */
export function examplePath(name: string): string {
  return join(EXAMPLES_DIR, `${name}.session.json`);
}

async function main(): Promise<void> {
  useNodeWasm();
  for (const script of EXAMPLE_SCRIPTS) {
    const session = await buildExample(script);
    await writeFile(examplePath(script.name), exampleFileText(session));
    process.stdout.write(`wrote ${examplePath(script.name)} (${session.steps.length} steps)\n`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) await main();
