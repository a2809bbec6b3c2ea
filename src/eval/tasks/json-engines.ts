import { file, type EvalTask } from '../task.ts';
import { TEST_HEAD } from './common.ts';

const pkg = (extra: Record<string, unknown>) =>
  `${JSON.stringify({ name: 'json-engines', version: '1.0.0', type: 'module', scripts: { test: 'node --test' }, ...extra, keywords: ['demo', 'eval'] }, null, 2)}\n`;
const task: EvalTask = {
  id: 'json-engines',
  title: 'Edit package.json without breaking it',
  statement: 'Declare in package.json that the project needs Node 20 or newer: add "engines": {"node": ">=20"}. Keep every other field as it is; the file must stay valid JSON.',
  mechanisms: ['json', 'syntax'],
  files: {
    'package.json': pkg({}),
    'src/version.js': file`
import { readFileSync } from 'node:fs';

export function nodeRange() {
  return JSON.parse(readFileSync('package.json', 'utf8')).engines?.node ?? null;
}
`,
    'test/version.test.js': TEST_HEAD + file`
import { nodeRange } from '../src/version.js';

test('the package names its node range', () => {
  assert.equal(nodeRange(), '>=20');
});
`,
  },
  grader: {
    'package.test.js': TEST_HEAD + file`
import { readFileSync } from 'node:fs';

test('package.json has engines and kept the rest', () => {
  const p = JSON.parse(readFileSync('package.json', 'utf8'));
  assert.deepEqual(p.engines, { node: '>=20' });
  assert.equal(p.name, 'json-engines');
  assert.equal(p.type, 'module');
  assert.equal(p.scripts.test, 'node --test');
  assert.deepEqual(p.keywords, ['demo', 'eval']);
});
`,
  },
  solution: { 'package.json': pkg({ engines: { node: '>=20' } }) },
};
export default task;
