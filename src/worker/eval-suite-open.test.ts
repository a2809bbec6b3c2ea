/**
 * Opening a suite on the Eval page, in the worker: the suite `slm eval import exercism` writes
 * from the fixture track, picked as a folder or as a .zip (made here with fflate), gives the
 * same tasks under the folder's name; what is not a suite, or is larger than a suite may be,
 * is refused with what to open instead. Then the eval host runs the opened suite's JavaScript
 * tasks with the reference model and names the suite in its results.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { sandboxedMemoryWorkspaces } from '../cli/eval-workspace.ts';
import { exerciseTask } from '../eval/exercism.ts';
import type { EvalTask } from '../eval/task.ts';
import { useNodeWasm } from '../platform/node-wasm.ts';
import { probeHostSandbox } from '../workspace/node/host-sandbox.ts';
import { EvalHost } from './eval-host.ts';
import { openEvalSuite, SUITE_LIMITS } from './eval-suite-open.ts';
import type { EvalEvent } from './protocol.ts';

useNodeWasm();

const PRACTICE = join(import.meta.dirname, '../../tests/fixtures/exercism-track/exercises/practice');

/** The fixture track imported, as `slm eval import exercism` converts it: id.task.json → text. */
function importedSuite(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const slug of readdirSync(PRACTICE)) {
    const files = new Map<string, string>();
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const p = join(dir, name);
        if (statSync(p).isDirectory()) walk(p);
        else files.set(relative(join(PRACTICE, slug), p), readFileSync(p, 'utf8'));
      }
    };
    walk(join(PRACTICE, slug));
    const r = exerciseTask({ slug, files });
    if (r.ok) out[`${r.task.id}.task.json`] = JSON.stringify(r.task);
  }
  return out;
}

const SUITE = importedSuite();
const IDS = Object.keys(SUITE)
  .map((f) => f.replace('.task.json', ''))
  .sort();

const picked = (files: Record<string, string | Uint8Array>) =>
  Object.entries(files).map(([path, data]) => ({ path, file: new Blob([data as BlobPart]) }));
const under = (dir: string, files: Record<string, string>) =>
  Object.fromEntries(Object.entries(files).map(([p, t]) => [`${dir}/${p}`, t]));
const ids = (tasks: readonly EvalTask[]) => tasks.map((t) => t.id);

describe('openEvalSuite', () => {
  it('a picked folder: the tasks in path order, named after the folder', async () => {
    const r = await openEvalSuite(picked({ ...under('imported', SUITE), 'imported/README.md': '# not a task' }));
    expect(r).toMatchObject({ ok: true, name: 'imported' });
    expect(r.ok && ids(r.tasks)).toEqual(IDS);
    expect(IDS).toHaveLength(6);
  });

  it('a .zip of the folder gives the same tasks; a zip of the files alone is named after the zip', async () => {
    const zipped = zipSync(
      Object.fromEntries(Object.entries(under('imported', SUITE)).map(([p, t]) => [p, strToU8(t)])),
    );
    const r = await openEvalSuite(picked({ 'imported.zip': zipped }));
    expect(r).toMatchObject({ ok: true, name: 'imported' });
    expect(r.ok && ids(r.tasks)).toEqual(IDS);
    const flat = zipSync(Object.fromEntries(Object.entries(SUITE).map(([p, t]) => [p, strToU8(t)])));
    expect(await openEvalSuite(picked({ 'downloads/my-bench.zip': flat }))).toMatchObject({
      ok: true,
      name: 'my-bench',
    });
  });

  it.each<[string, Record<string, string | Uint8Array>, RegExp]>([
    ['no task file', { 'x/readme.md': 'hi' }, /The suite x cannot be opened: the folder holds no \*\.task\.json file/],
    ['a task file that is not JSON', { 'x/a.task.json': '{' }, /x\/a\.task\.json is not JSON/],
    ['a task file that is not a task', { 'x/a.task.json': '{"id": 1}' }, /x\/a\.task\.json is not a task:/],
    [
      'two tasks with one id',
      { 'x/a.task.json': Object.values(SUITE)[0]!, 'x/b.task.json': Object.values(SUITE)[0]! },
      /two tasks have the id/,
    ],
    ['bytes that are not a zip', { 'x.zip': 'not a zip at all' }, /x\.zip cannot be read as a zip/],
    [
      'a task file over the size a suite may have',
      { 'x.zip': zipSync({ 'a.task.json': new Uint8Array(SUITE_LIMITS.fileBytes + 1) }) },
      /x\.zip: a suite opened here holds at most 2,000 files, 1 MB a task file/,
    ],
  ])('refuses %s, saying what a suite is', async (_what, files, text) => {
    const r = await openEvalSuite(picked(files));
    expect(r.ok).toBe(false);
    expect(!r.ok && r.text).toMatch(text);
  });
});

const sandbox = await probeHostSandbox();
const open = 'kind' in sandbox ? sandboxedMemoryWorkspaces(sandbox) : undefined;
if (!open)
  console.log(
    `skipped: the eval host on an opened suite grades in the OS sandbox, and there is none here (${'why' in sandbox ? sandbox.why : 'no sandbox'})`,
  );

describe.skipIf(!open)('the eval host on an opened suite', () => {
  it('runs the chosen tasks of the opened suite with the reference model, and names the suite in its results', async () => {
    const events: EvalEvent[] = [];
    const h = new EvalHost((_id, e) => events.push(e), {}, open);
    const opened = await h.openSuite(picked(under('imported', SUITE)));
    expect(opened).toMatchObject({ ok: true, suite: { name: 'imported' } });
    expect(opened.ok && opened.suite.tasks.map((t) => [t.id, t.language])).toContainEqual([
      'shopping-cart',
      'javascript',
    ]);
    const tasks = ['async-inventory', 'shopping-cart'];
    await h.start({
      tasks,
      arms: ['on'],
      seeds: 1,
      model: { kind: 'reference' },
      jobs: 1,
      maxSteps: 20,
      contextTokens: 4096,
    });
    const ended = () => events.find((e) => e.kind === 'ended') as Extract<EvalEvent, { kind: 'ended' }> | undefined;
    await expect.poll(ended, { timeout: 120_000, interval: 200 }).toBeDefined();
    const results = ended()!.results;
    expect(results.suite).toBe('imported');
    expect(results.runs.map((r) => [r.task, r.passed, r.failure])).toEqual(tasks.map((t) => [t, true, null]));
    // The builtin suite is back once asked for.
    expect(h.builtinSuite().name).toBe('builtin');
    await expect(
      h.start({
        tasks,
        arms: ['on'],
        seeds: 1,
        model: { kind: 'reference' },
        jobs: 1,
        maxSteps: 20,
        contextTokens: 4096,
      }),
    ).rejects.toThrow(/Unknown tasks async-inventory, shopping-cart: pick tasks of the suite builtin/);
  }, 150_000);
});
