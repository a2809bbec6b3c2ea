/**
 * `slm eval` end to end through the real CLI: the reference model (scripted turns applying each
 * task's reference solution) on two tasks, both arms, writes every session, results.json, the
 * Markdown table and the HTML report, all labelled scripted; a scripted model that gives up is
 * classified; Ctrl-C keeps the sessions that finished; the generated random-weight GGUF runs
 * labelled test-model; bad command lines and a host without the OS sandbox exit 2.
 */
import { spawn } from 'node:child_process';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkResults, type EvalResults } from '../../src/eval/results-schema.ts';
import { sessionSchema } from '../../src/session/record.ts';
import { probeHostSandbox } from '../../src/workspace/node/host-sandbox.ts';
import { makeTestModel, TEST_MODEL_FILE } from '../support/gguf/test-model.ts';
import { needsNodeLlamaCpp } from '../support/node-llama-cpp.ts';
import { cleanup, envWithoutBwrap, runCli, tempRoot, type CliRun } from './cli-process.ts';

const sandboxed = 'kind' in (await probeHostSandbox());
const ggufRuns = sandboxed && needsNodeLlamaCpp('slm eval --model gguf:');
const TASKS = 'repeated-span,trailing-whitespace';
const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

async function results(out: string): Promise<EvalResults> {
  const checked = checkResults(JSON.parse(await readFile(join(out, 'results.json'), 'utf8')));
  if (!checked.ok) throw new Error(checked.text);
  return checked.results;
}

afterAll(cleanup);

describe.skipIf(!sandboxed)('slm eval --model reference on two tasks, arms on and off', () => {
  let out: string;
  let run: CliRun;
  beforeAll(async () => {
    out = join(await tempRoot(), 'eval');
    run = await runCli([
      'eval',
      '--model',
      'reference',
      '--tasks',
      TASKS,
      '--arms',
      'on,off',
      '--jobs',
      '2',
      '--out',
      out,
    ]);
  }, 120_000);

  it('exits 0 and prints the arm table under the label', () => {
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^NOT A MEASUREMENT \(scripted\): Scripted turns, not a live model/);
    expect(run.stdout).toContain('on | 100.0% | 34.2% – 100.0% | 2 / 2 |');
    expect(run.stdout).toContain('off | 100.0% | 34.2% – 100.0% | 2 / 2 |');
    expect(run.stderr).toContain('4/4 sessions, 4 passed');
  });

  it('writes results.json: every task × arm, graded, labelled scripted, complete', async () => {
    const r = await results(out);
    expect(r).toMatchObject({
      suite: 'builtin',
      model: { id: 'reference', label: 'scripted' },
      complete: true,
      seeds: 1,
    });
    expect(r.runs.map((x) => `${x.task}/${x.arm}/${x.passed}/${x.failure}`)).toEqual([
      'repeated-span/on/true/null',
      'repeated-span/off/true/null',
      'trailing-whitespace/on/true/null',
      'trailing-whitespace/off/true/null',
    ]);
    expect(Object.keys(r.tasks)).toEqual(['repeated-span', 'trailing-whitespace']);
  });

  it('writes every session file where results.json says, each a valid session record', async () => {
    for (const x of (await results(out)).runs) {
      const session = sessionSchema.parse(JSON.parse(await readFile(join(out, x.session), 'utf8')));
      expect(session.steps).toHaveLength(x.steps);
      expect(session.model.kind).toBe('scripted');
    }
  });

  it('writes the Markdown table and the HTML report, both labelled', async () => {
    expect(await readFile(join(out, 'results.md'), 'utf8')).toContain('> **NOT A MEASUREMENT — scripted:');
    const html = await readFile(join(out, 'report.html'), 'utf8');
    expect(html).toContain('NOT A MEASUREMENT');
    expect(html).toContain('href="sessions/repeated-span.off.s0.session.json"');
  });

  it('writes sessions slm replay reproduces (the on arm)', async () => {
    const replay = await runCli(['replay', join(out, 'sessions/repeated-span.on.s0.session.json')]);
    expect(replay.code, replay.stdout + replay.stderr).toBe(0);
  }, 60_000);
});

describe.skipIf(!sandboxed)('slm eval with a scripted model that gives up', () => {
  it('records the failure kind and still exits 0 (the eval ran)', async () => {
    const dir = await tempRoot();
    const script = join(dir, 'give-up.json');
    await writeFile(script, JSON.stringify(['{"tool": "done", "args": {"summary": "nothing to do"}}']));
    const run = await runCli([
      'eval',
      '--model',
      `scripted:${script}`,
      '--tasks',
      'emitter-off',
      '--arms',
      'on',
      '--out',
      join(dir, 'out'),
    ]);
    expect(run.code, run.stderr).toBe(0);
    const r = await results(join(dir, 'out'));
    expect(r.model.label).toBe('scripted');
    expect(r.runs).toMatchObject([
      { task: 'emitter-off', arm: 'on', passed: false, failure: 'gave-up', stop: 'done', steps: 1 },
    ]);
    expect(r.summary.arms[0]).toMatchObject({ passed: 0, failures: { 'gave-up': 1 } });
  }, 60_000);
});

describe.skipIf(!sandboxed)('slm eval, the gutter-strip-off arm', () => {
  it('a scripted edit that pastes ws_read line numbers lands with the ACI on and misses with gutter stripping off', async () => {
    const dir = await tempRoot();
    const script = join(dir, 'gutter.json');
    const call = (tool: string, args: object) => JSON.stringify({ tool, args });
    await writeFile(
      script,
      JSON.stringify([
        call('ws_read', { path: 'src/emitter.js' }),
        call('ws_edit', {
          path: 'src/emitter.js',
          old_str: '    11|  off(event, fn) {\n    12|    this.#listeners.delete(event);',
          new_str:
            '  off(event, fn) {\n    const list = this.#listeners.get(event) ?? [];\n    this.#listeners.set(event, list.filter((f) => f !== fn));',
        }),
        call('done', { summary: 'off removes only its listener' }),
      ]),
    );
    const run = await runCli([
      'eval',
      '--model',
      `scripted:${script}`,
      '--tasks',
      'emitter-off',
      '--arms',
      'on,gutter-strip-off',
      '--out',
      join(dir, 'out'),
    ]);
    expect(run.code, run.stderr).toBe(0);
    const r = await results(join(dir, 'out'));
    expect(r.runs.map((x) => [x.arm, x.passed])).toEqual([
      ['on', true],
      ['gutter-strip-off', false],
    ]);
    const off = JSON.parse(await readFile(join(dir, 'out', r.runs[1]!.session), 'utf8')) as {
      settings: { engine: { gutter_strip: boolean } };
      steps: { resultText?: string }[];
    };
    expect(off.settings.engine.gutter_strip).toBe(false);
    expect(off.steps[1]!.resultText).toContain('gutter_strip is off, so they are not stripped for you');
  }, 90_000);
});

describe.skipIf(!sandboxed)('slm eval interrupted with Ctrl-C', () => {
  it('keeps the sessions that finished: results.json marked incomplete, exit 1', async () => {
    const out = join(await tempRoot(), 'out');
    // Node itself with tsx's loader, so the signal reaches slm as it does from a terminal (no tsx wrapper process between).
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        join(REPO, 'src/cli/main.ts'),
        'eval',
        '--model',
        'reference',
        '--tasks',
        'repeated-span,curly-quotes,nested-indent',
        '--arms',
        'on,off',
        '--out',
        out,
      ],
      { cwd: REPO, stdio: 'pipe' },
    );
    let stderr = '';
    let sent = false;
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString('utf8');
      if (!sent && stderr.includes('1/6 sessions')) sent = child.kill('SIGINT');
    });
    const code = await new Promise<number | null>((done) => child.on('close', done));
    expect(code, stderr).toBe(1);
    const r = await results(out);
    expect(r.complete).toBe(false);
    expect(r.runs.length).toBeGreaterThanOrEqual(1);
    expect(r.runs.length).toBeLessThan(6);
    for (const x of r.runs) await expect(stat(join(out, x.session))).resolves.toBeTruthy();
    expect(await readFile(join(out, 'results.md'), 'utf8')).toMatch(/Interrupted: \d of 6 sessions finished/);
  }, 120_000);
});

describe.skipIf(!ggufRuns)('slm eval on the generated random-weight GGUF', () => {
  it('runs the pipeline and labels every number meaningless', async () => {
    const dir = await tempRoot();
    const model = join(dir, TEST_MODEL_FILE);
    await writeFile(model, makeTestModel());
    const run = await runCli([
      'eval',
      '--model',
      `gguf:${model}`,
      '--tasks',
      'nested-indent',
      '--arms',
      'on,off',
      '--max-steps',
      '3',
      '--context',
      '8192',
      '--out',
      join(dir, 'out'),
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('The random-weight test model, not a language model');
    const r = await results(join(dir, 'out'));
    expect(r.model.label).toBe('test-model');
    expect(r.runs.map((x) => x.arm)).toEqual(['on', 'off']);
    for (const x of r.runs) expect(x.steps).toBeGreaterThan(0);
    expect(await readFile(join(dir, 'out/results.md'), 'utf8')).toContain('NOT A MEASUREMENT — test-model');
  }, 180_000);
});

describe('slm eval usage', () => {
  it.each([
    [['eval', '--out', 'x'], /--model SPEC is required/],
    [['eval', '--model', 'reference', '--out', 'x', '--arms', 'on,nope'], /--arms: unknown arm "nope"/],
    [['eval', '--model', 'gguf:m.gguf', '--out', 'x', '--jobs', '2'], /--jobs above 1 needs an endpoint/],
  ])('%j exits 2 with what is wrong and the usage', async (args, message) => {
    const run = await runCli(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).toContain('usage:\n  slm eval --model SPEC --out DIR');
  });

  it('refuses to run the tasks where the OS sandbox cannot run, naming the way out', async () => {
    const run = await runCli(
      ['eval', '--model', 'reference', '--tasks', 'repeated-span', '--out', join(await tempRoot(), 'o')],
      '',
      await envWithoutBwrap(),
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /the tasks' tests cannot run: commands are not run: the OS sandbox \(bubblewrap\) cannot run here.*--unsandboxed-commands/s,
    );
  });

  it('is listed in slm --help, and slm help eval gives its usage', async () => {
    expect((await runCli(['--help'])).stdout).toMatch(/^ {2}eval +runs tasks/m);
    expect((await runCli(['help', 'eval'])).stdout).toContain('slm eval --model SPEC --out DIR');
  });
});
