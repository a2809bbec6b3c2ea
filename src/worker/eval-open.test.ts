/** Eval results opened again in the worker: the page's export, an `slm eval` folder's files, and the refusals, each saying what to pick. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ARMS } from '../eval/arms.ts';
import { modelInfo } from '../eval/model-label.ts';
import type { EvalRun } from '../eval/results-schema.ts';
import { buildResults } from '../eval/results.ts';
import type { Session } from '../session/record.ts';
import { evalBundleText } from './eval-bundle.ts';
import { openEvalFiles } from './eval-open.ts';

const session = JSON.parse(
  readFileSync(new URL('../../examples/drifted-edit.session.json', import.meta.url), 'utf8'),
) as Session;
const run = (arm: string): EvalRun => ({
  task: 't1',
  arm,
  seed: 0,
  passed: arm === 'on',
  steps: 3,
  tokens: 100,
  tokensEstimated: true,
  ms: 5,
  session: `sessions/t1.${arm}.s0.session.json`,
  failure: arm === 'on' ? null : 'wrong-edit',
  stop: 'done',
  mechanisms: {},
  grader: { passed: 1, failed: 0 },
});
const results = buildResults({
  suite: 'builtin',
  model: modelInfo('reference'),
  createdAt: '2026-12-01T00:00:00Z',
  arms: ARMS.slice(0, 2),
  seeds: 1,
  tasks: [
    {
      id: 't1',
      title: 'T',
      statement: 's',
      mechanisms: ['paging'],
      files: {},
      grader: { 'a.test.js': '' },
      solution: { a: '' },
    },
  ],
  runs: [run('on'), run('off')],
  complete: true,
});
const blob = (text: string) => new Blob([text]);
const json = (v: unknown) => blob(JSON.stringify(v));

describe('openEvalFiles', () => {
  it('opens the page export with every session it names', async () => {
    const sessions = { [run('on').session]: session, [run('off').session]: session };
    const opened = await openEvalFiles([{ path: 'x.eval.json', file: blob(evalBundleText({ results, sessions })) }]);
    expect(opened).toMatchObject({ ok: true, missing: [] });
    if (opened.ok) expect(Object.keys(opened.bundle.sessions)).toEqual(Object.keys(sessions));
  });

  it('opens an slm eval folder: results.json and the session files by their relative path; a missing one is listed', async () => {
    const opened = await openEvalFiles([
      { path: 'out/results.json', file: json(results) },
      { path: 'out/sessions/t1.on.s0.session.json', file: json(session) },
      { path: 'out/report.md', file: blob('# table') },
    ]);
    expect(opened).toMatchObject({ ok: true, missing: ['sessions/t1.off.s0.session.json'] });
    if (opened.ok) expect(opened.bundle.results.model.label).toBe('scripted');
  });

  it.each<[string, { path: string; file: Blob }[], RegExp]>([
    [
      'no results among the files',
      [
        { path: 'a.session.json', file: json(session) },
        { path: 'b.md', file: blob('') },
      ],
      /None of the files is an eval result/,
    ],
    ['a file that is not JSON', [{ path: 'results.json', file: blob('{') }], /is not JSON/],
    ['JSON that is not results', [{ path: 'results.json', file: json({ v: 1 }) }], /not an eval results file/],
    [
      'an export of another version',
      [{ path: 'x.eval.json', file: json({ slmcodeEval: 9, results, sessions: {} }) }],
      /version 9; this page reads version 1/,
    ],
    [
      'a broken session in an export',
      [{ path: 'x.eval.json', file: json({ slmcodeEval: 1, results, sessions: { [run('on').session]: { v: 1 } } }) }],
      /sessions\/t1\.on\.s0\.session\.json in x\.eval\.json cannot be opened/,
    ],
  ])('refuses %s', async (_name, files, text) => {
    const opened = await openEvalFiles(files);
    expect(opened.ok).toBe(false);
    if (!opened.ok) expect(opened.text).toMatch(text);
  });
});
