import { describe, expect, it } from 'vitest';
import { ARMS } from './arms.ts';
import { modelInfo } from './model-label.ts';
import { htmlReport } from './report-html.ts';
import { markdownReport } from './report-md.ts';
import { buildResults } from './results.ts';
import type { EvalRun } from './results-schema.ts';
import type { EvalTask } from './task.ts';

const task = (id: string): EvalTask => ({
  id,
  title: id,
  statement: 's',
  mechanisms: ['paging'],
  files: { 'a.js': '' },
  grader: { 'a.test.js': '' },
  solution: { 'a.js': 'x' },
});
const arms = ARMS.filter((a) => a.id === 'on' || a.id === 'off');
const row = (t: string, arm: string, passed: boolean): EvalRun => ({
  task: t,
  arm,
  seed: 0,
  passed,
  steps: 3,
  tokens: 900,
  tokensEstimated: false,
  ms: 2000,
  session: `sessions/${t}.${arm}.s0.session.json`,
  failure: passed ? null : 'loop',
  stop: passed ? 'done' : 'max-steps',
  mechanisms: passed ? { 'rung-indent': 1 } : { 'loop-guard': 2 },
  grader: { passed: 1, failed: passed ? 0 : 1 },
});
const runs = [row('alpha', 'on', true), row('alpha', 'off', false)];
const results = (spec: string, name?: string) =>
  buildResults({
    suite: 'builtin',
    model: modelInfo(spec, name),
    createdAt: 'now',
    arms,
    seeds: 1,
    tasks: [task('alpha')],
    runs,
    complete: true,
  });

describe('the reports', () => {
  it.each([
    ['scripted:turns.json', undefined, 'scripted'],
    ['reference', undefined, 'scripted'],
    ['gguf:x.gguf', 'slm-test-tiny-random', 'test-model'],
  ])('lead with NOT A MEASUREMENT for %s (%s)', (spec, name, label) => {
    const r = results(spec, name);
    expect(r.model.label).toBe(label);
    expect(markdownReport(r)).toMatch(/^# Eval: builtin suite\n\n> \*\*NOT A MEASUREMENT — /);
    expect(htmlReport(r)).toContain('<p class="warning" role="alert">NOT A MEASUREMENT');
    expect(htmlReport(r)).toMatch(/<title>[^<]*, not a measurement\)<\/title>/);
  });

  it('say nothing of the kind for a live model', () => {
    const r = results('openai:http://127.0.0.1:11434/v1#qwen2.5-coder:1.5b');
    expect(r.model.label).toBe('real');
    expect(markdownReport(r)).not.toContain('NOT A MEASUREMENT');
    expect(htmlReport(r)).not.toContain('class="warning"');
  });

  it('table the arms, the failures, the mechanisms and each task', () => {
    const md = markdownReport(results('reference'));
    expect(md).toContain('| on | 100.0% | 20.7% – 100.0% | 1 / 1 | 3.0 | 900 | 2.0 s |');
    expect(md).toContain('| off | 0.0% | 0.0% – 79.3% | 0 / 1 |');
    expect(md).toContain('| off | 0 | 1 | 0 | 0 | 0 | 0 | 0 |');
    expect(md).toContain('| loop-guard | 0 | 2 |');
    expect(md).toContain('| alpha | paging | 1/1 | 0/1 |');
  });

  it('write a static page: no script, no remote resource, each cell linking its sessions', () => {
    const html = htmlReport(results('reference'));
    expect(html).not.toMatch(/<script|src=|https?:\/\//);
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`);
    expect(html).toContain('<a href="sessions/alpha.off.s0.session.json"');
    expect(html).toContain('<svg role="img" aria-label="pass rate per arm with 95% intervals"');
  });

  it('escape what a suite folder can name', () => {
    const r = buildResults({
      suite: '<b>x</b>',
      model: modelInfo('reference'),
      createdAt: 'now',
      arms,
      seeds: 1,
      tasks: [task('alpha')],
      runs: [{ ...runs[0]!, session: 'sessions/"><img>.json' }],
      complete: true,
    });
    const html = htmlReport(r);
    expect(html).not.toContain('<b>x</b>');
    expect(html).not.toContain('"><img>');
    expect(markdownReport({ ...r, suite: 'a|b' })).toContain('# Eval: a|b suite');
  });

  it('say when the eval was interrupted', () => {
    const r = { ...results('reference'), complete: false };
    expect(markdownReport(r)).toContain('Interrupted: 2 of 2 sessions finished');
  });
});
