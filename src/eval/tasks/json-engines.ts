import { file, type EvalTask } from '../task.ts';
import { TEST_HEAD } from './common.ts';

const BASE = { name: 'json-engines', version: '1.0.0', type: 'module', scripts: { test: 'node --test' } };
const pkg = (extra: Record<string, unknown>) =>
  `${JSON.stringify({ ...BASE, ...extra, keywords: ['demo', 'eval'] }, null, 2)}\n`;
const task: EvalTask = {
  id: 'json-engines',
  title: 'Edit package.json without breaking it',
  statement:
    'Declare in package.json that the project needs Node 20 or newer: add "engines": {"node": ">=20"}. Keep every other field as it is; the file must stay valid JSON and npm test must still pass.',
  mechanisms: ['json', 'syntax'],
  files: {
    'package.json': pkg({}),
    'src/version.js': file`
export const MINIMUM_NODE = 20;

export function supported(major) {
  return major >= MINIMUM_NODE;
}
`,
    'test/version.test.js':
      TEST_HEAD +
      file`
import { supported } from '../src/version.js';

test('node 20 and newer are supported', () => {
  assert.ok(supported(20) && supported(22) && !supported(18));
});
`,
  },
  grader: {
    'version.test.js':
      TEST_HEAD +
      file`
import { MINIMUM_NODE, supported } from '../src/version.js';

test('the code still says 20', () => {
  assert.equal(MINIMUM_NODE, 20);
  assert.ok(supported(20) && !supported(19));
});
`,
  },
  checks: [
    { kind: 'json', path: 'package.json', fields: { ...BASE, engines: { node: '>=20' }, keywords: ['demo', 'eval'] } },
  ],
  solution: { 'package.json': pkg({ engines: { node: '>=20' } }) },
};
export default task;
