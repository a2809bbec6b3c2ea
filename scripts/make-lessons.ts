/**
 * `npx tsx scripts/make-lessons.ts` (part of `npm run lessons`): writes the lesson sessions in
 * lessons/. Each lesson is a short realistic task in which a scripted model makes the mistakes
 * small models make; only those raw outputs are written here. Every result, hash and note is
 * computed by the real loop and engine while recording, and again by every replay. The
 * lessons' titles, captions and claimed mechanisms live in src/session/lessons.ts; the tests
 * check that each claimed mechanism really fires at its step.
 *
 * Every lesson is recorded in a memory workspace that runs the project's tests: `node` runs in
 * real Node and `python3` in this machine's Python, inside the host's command sandbox
 * (bubblewrap, as `slm replay` uses), so each lesson ends on its final test run's real tally.
 * The tests the lessons run print nothing that changes from run to run (ws_test drops
 * node:test's and unittest's timings), so the browser's sandbox and its Pyodide replay the same
 * text.
 */
import { writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ScriptedModel } from '../src/agent/models/scripted.ts';
import type { Step } from '../src/agent/step.ts';
import { createEngine } from '../src/engine/create.ts';
import type { EngineSettings } from '../src/engine/settings.ts';
import type { WebTransport } from '../src/engine/web/transport.ts';
import { nodeWebTransport } from '../src/platform/node-web.ts';
import { decodeText, encodeText } from '../src/engine/text.ts';
import type { Workspace } from '../src/engine/workspace.ts';
import { useNodeWasm } from '../src/platform/node-wasm.ts';
import { lessonById, LESSONS, lessonFile } from '../src/session/lessons.ts';
import type { Session } from '../src/session/record.ts';
import { recordRun } from '../src/session/recorder.ts';
import { readTree } from '../src/session/tree.ts';
import { MemoryWorkspace } from '../src/workspace/memory/memory-workspace.ts';
import { NodeJsEngine, NodePyEngine } from '../src/workspace/memory/node-runner.ts';
import { ShellRunner } from '../src/workspace/memory/shell-runner.ts';
import { probeHostSandbox, type HostSandbox } from '../src/workspace/node/host-sandbox.ts';
import { STARTER_TEMPLATE } from '../src/workspace/templates/index.ts';
import { seedTemplateRepo } from '../src/workspace/git-seed.ts';
import { startWebFixture } from '../tests/support/web-fixtures.ts';
import { CART_FILES, CATALOG_FILES, PRICE_FILES, ROUTES_FILES, UTILS_FILES } from './lesson-files.ts';
import { GRADES_FILES } from './lesson-python.ts';
import { LESSON_SCRIPTS } from './lesson-scripts.ts';

/** The repository root: lesson files are named relative to it (src/session/lessons.ts `lessonFile`). */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** The command that rewrites them (quoted in the out-of-date test's message). */
export const REGENERATE_LESSONS = 'npm run lessons';
/** A fixed start time, so regenerating unchanged lessons writes identical files. */
const CREATED_AT = '2025-01-01T00:00:00.000Z';

/** The starting files a lesson names: the bundled starter template, or one of the small projects in lesson-files.ts. */
export type LessonStart = 'starter' | 'utils' | 'routes' | 'catalog' | 'cart' | 'price' | 'grades';

const START_FILES: Readonly<Record<Exclude<LessonStart, 'starter'>, Readonly<Record<string, string>>>> = {
  utils: UTILS_FILES,
  routes: ROUTES_FILES,
  catalog: CATALOG_FILES,
  cart: CART_FILES,
  price: PRICE_FILES,
  grades: GRADES_FILES,
};

/** One lesson's recording: where it starts, the task, the raw outputs and the loop settings that shape it. */
export interface LessonScript {
  /** The lesson id in src/session/lessons.ts (and the file name). */
  readonly id: string;
  readonly task: string;
  readonly start: LessonStart;
  /** The raw model outputs, one per step. */
  readonly outputs: readonly string[];
  /** Steps without test progress before the stall nudge (the loop's default otherwise). */
  readonly stallSteps?: number;
  /** The person a gated shell command goes before declines it. */
  readonly declineGated?: boolean;
  /**
   * The web pages the lesson fetches: each public URL the model asks for, answered by this path
   * of the loopback web fixture (tests/support/web-fixtures.ts). The record keeps the public
   * URL and the fixture's bytes, never the fixture's port, and the lesson runs with the
   * specialist tools on.
   */
  readonly pages?: Readonly<Record<string, string>>;
}

/** A recorded lesson with what the session file leaves out: the live steps (with notes) and the files before each step. */
export interface LessonRun {
  readonly session: Session;
  readonly steps: readonly Step[];
  /** `before[i]` holds every text file of the workspace just before step i + 1. */
  readonly before: readonly Readonly<Record<string, string>>[];
}

let sandbox: Promise<HostSandbox> | undefined;

/** The host's command sandbox, probed once; recording needs it, since the recorded sessions run their tests. */
function recordingSandbox(): Promise<HostSandbox> {
  sandbox ??= probeHostSandbox().then((probed) => {
    if ('kind' in probed) return probed;
    throw new Error(
      `the bundled sessions run their tests while they are recorded, inside the OS sandbox (bubblewrap), which cannot run here: ${probed.why}. Install bubblewrap (Debian/Ubuntu: apt install bubblewrap).`,
    );
  });
  return sandbox;
}

/**
 * A fresh workspace to record or replay a bundled session in: memory, with a process runner
 * that runs `node` in real Node and `python3` in this machine's Python, both inside the host
 * sandbox (as `slm replay` does). Node-only — the browser gives its sandbox runner, whose
 * python3 is Pyodide.
 */
export async function lessonWorkspace(): Promise<MemoryWorkspace> {
  const sandbox = await recordingSandbox();
  return new MemoryWorkspace(
    undefined,
    undefined,
    new ShellRunner(new NodeJsEngine(sandbox), new NodePyEngine(sandbox)),
  );
}

async function seed(ws: Workspace, start: LessonStart): Promise<void> {
  if (start === 'starter') {
    await seedTemplateRepo(ws, STARTER_TEMPLATE);
    return;
  }
  for (const [path, text] of Object.entries(START_FILES[start])) await ws.writeFile(path, encodeText(text));
}

/** The text files in `ws` now, path → text. */
async function snapshot(ws: Workspace): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const e of await readTree(ws)) if (e.type === 'file') files[e.path] = decodeText(e.bytes!);
  return files;
}

/** A scripted run to record: a seeded workspace, the raw outputs and the loop settings that shape the steps. */
export interface ScriptedRun {
  readonly workspace: Workspace;
  readonly task: string;
  readonly outputs: readonly string[];
  readonly name: string;
  readonly stallSteps?: number;
  readonly declineGated?: boolean;
  /** Engine settings other than the defaults. */
  readonly settings?: Partial<EngineSettings>;
  /** How the web tools reach the web (absent: they reach nothing). */
  readonly web?: WebTransport;
}

/**
 * Records `run` through the real loop and engine, keeping what the session file leaves out:
 * the live steps and the files before each step (for the "ACI off" comparison).
 */
export async function recordScripted(run: ScriptedRun): Promise<LessonRun> {
  const ws = run.workspace;
  const steps: Step[] = [];
  const before: Record<string, string>[] = [];
  const { session } = await recordRun({
    engine: createEngine(ws, run.settings, run.web ? { outside: { web: run.web } } : {}),
    model: new ScriptedModel(run.outputs, { name: run.name }),
    task: run.task,
    maxSteps: run.outputs.length,
    createdAt: CREATED_AT,
    ...(run.stallSteps !== undefined && { stallSteps: run.stallSteps }),
    // A gated shell command always goes before a person; this one says no to it.
    ...(run.declineGated && { approve: async (request) => request.reason !== 'gated-shell' }),
    // The recorder's gate runs once the previous step is recorded: the workspace is as this step finds it.
    gate: async () => {
      before.push(await snapshot(ws));
    },
    onStep: (step) => steps.push(step),
  });
  return { session, steps, before };
}

/**
 * A transport that answers each of `pages`' public URLs from the loopback web fixture at `base`
 * (and nothing else), so the record names the public URL and holds the fixture's bytes.
 */
function fixturePages(base: string, pages: Readonly<Record<string, string>>): WebTransport {
  return {
    request: (req) => {
      const path = pages[req.url];
      if (path === undefined)
        return Promise.resolve({ ok: false, code: 'unreachable', text: `${req.url} is not one of the lesson's pages` });
      return nodeWebTransport.request({ ...req, url: `${base}${path}`, allowPrivate: true });
    },
  };
}

/** Records lesson `script` on a fresh workspace of the kind its lesson needs (and, when it fetches pages, with the web fixture serving them). */
export async function runLesson(script: LessonScript): Promise<LessonRun> {
  if (!lessonById(script.id)) throw new Error(`runLesson: no lesson "${script.id}" in src/session/lessons.ts`);
  const workspace = await lessonWorkspace();
  await seed(workspace, script.start);
  const fixture = script.pages ? await startWebFixture() : undefined;
  try {
    return await recordScripted({
      workspace,
      task: script.task,
      outputs: script.outputs,
      name: `lesson-${script.id}`,
      ...(script.stallSteps !== undefined && { stallSteps: script.stallSteps }),
      ...(script.declineGated && { declineGated: true }),
      ...(fixture &&
        script.pages && { settings: { specialist_tools: true }, web: fixturePages(fixture.base, script.pages) }),
    });
  } finally {
    await fixture?.close();
  }
}

/** The script of lesson `id`. */
export function lessonScript(id: string): LessonScript {
  const script = LESSON_SCRIPTS.find((s) => s.id === id);
  if (!script) throw new Error(`lessonScript: no script for lesson "${id}" in scripts/lesson-scripts.ts`);
  return script;
}

/** The file text of a lesson: the session's file form, pretty-printed. */
export function lessonFileText(session: Session): string {
  return `${JSON.stringify(session, null, 2)}\n`;
}

/** The path of lesson `id`'s session file. */
export function lessonPath(id: string): string {
  return join(ROOT, lessonFile(id));
}

async function main(): Promise<void> {
  useNodeWasm();
  for (const lesson of LESSONS) {
    const { session } = await runLesson(lessonScript(lesson.id));
    if (session.steps.length !== lesson.steps.length) {
      throw new Error(
        `lesson ${lesson.id}: the script made ${session.steps.length} steps but src/session/lessons.ts captions ${lesson.steps.length}`,
      );
    }
    await writeFile(lessonPath(lesson.id), lessonFileText(session));
    process.stdout.write(`wrote ${lessonPath(lesson.id)} (${session.steps.length} steps)\n`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) await main();
