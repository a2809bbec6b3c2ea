import { describe, expect, it } from 'vitest';
import { failedChecks } from './file-checks.ts';
import type { EvalTask, FileCheck } from './task.ts';

const start = {
  'data.js': 'export const X = 1;\n',
  'old.js': 'x\n',
  'package.json': '{"name": "p", "engines": {"node": ">=18"}}\n',
};
const task = (checks: FileCheck[]): EvalTask => ({
  id: 't',
  title: 't',
  statement: 's',
  mechanisms: ['json'],
  files: start,
  grader: { 'a.test.js': '' },
  solution: { 'a.js': '' },
  checks,
});

describe('failedChecks', () => {
  it.each<[string, FileCheck, Record<string, string>, string | null]>([
    ['unchanged holds', { kind: 'unchanged', path: 'data.js' }, start, null],
    [
      'unchanged, edited',
      { kind: 'unchanged', path: 'data.js' },
      { ...start, 'data.js': 'export const X = 2;\n' },
      'data.js must stay exactly as it was, but it changed',
    ],
    [
      'unchanged, deleted',
      { kind: 'unchanged', path: 'data.js' },
      { 'old.js': 'x\n' },
      'data.js must stay exactly as it was, but it is gone',
    ],
    ['absent holds', { kind: 'absent', path: 'old.js' }, { 'data.js': '' }, null],
    ['absent, still there', { kind: 'absent', path: 'old.js' }, start, 'old.js must no longer exist'],
    ['matches expected', { kind: 'matches', path: 'data.js', pattern: 'X = 1', expect: true }, start, null],
    [
      'matches missing',
      { kind: 'matches', path: 'data.js', pattern: 'X = 2', expect: true },
      start,
      'data.js must match /X = 2/',
    ],
    [
      'must not match, and does',
      { kind: 'matches', path: 'data.js', pattern: '^export', flags: 'm', expect: false },
      start,
      'data.js must not match /^export/m',
    ],
    [
      'matches on a file that is gone',
      { kind: 'matches', path: 'gone.js', pattern: 'x', expect: false },
      start,
      'gone.js is missing',
    ],
    ['json fields equal', { kind: 'json', path: 'package.json', fields: { engines: { node: '>=18' } } }, start, null],
    [
      'json field differs',
      { kind: 'json', path: 'package.json', fields: { engines: { node: '>=20' } } },
      start,
      'package.json: "engines" must be {"node":">=20"}, not {"node":">=18"}',
    ],
    [
      'json broken',
      { kind: 'json', path: 'package.json', fields: { name: 'p' } },
      { 'package.json': '{"name": "p",}' },
      'package.json is not valid JSON',
    ],
  ])('%s', (_name, check, finished, message) => {
    const failed = failedChecks(task([check]), finished);
    if (message === null) expect(failed).toEqual([]);
    else expect(failed[0]).toContain(message);
  });

  it('reports every failed check, and none for a task without checks', () => {
    expect(
      failedChecks(
        task([
          { kind: 'absent', path: 'old.js' },
          { kind: 'unchanged', path: 'data.js' },
        ]),
        { 'old.js': 'x\n' },
      ),
    ).toHaveLength(2);
    expect(failedChecks({ ...task([]), checks: undefined }, {})).toEqual([]);
  });
});
