import { file, type EvalTask } from '../task.ts';
import { packageJson, TEST_HEAD } from './common.ts';

const helpers = file`
export function pad(n, width) {
  return String(n).padStart(width, '0');
}

export function clock(minutes) {
  return pad(Math.floor(minutes / 60), 2) + ':' + pad(minutes % 60, 2);
}
`;
const index = (from: string) => file`
export { clock, pad } from './${from}.js';
`;
const task: EvalTask = {
  id: 'move-module',
  title: 'Move a module and follow it',
  statement:
    'Move src/helpers.js to src/format.js (the file must no longer exist under its old name) and update src/index.js so that everything still works. Then make the tests pass.',
  mechanisms: ['rename', 'multi-file'],
  files: {
    'package.json': packageJson('move-module'),
    'src/helpers.js': helpers,
    'src/index.js': index('helpers'),
    'test/format.test.js':
      TEST_HEAD +
      file`
import { clock } from '../src/format.js';
import * as index from '../src/index.js';

test('format.js has clock, and index re-exports it', () => {
  assert.equal(clock(75), '01:15');
  assert.equal(index.pad(7, 3), '007');
});
`,
  },
  grader: {
    'move.test.js':
      TEST_HEAD +
      file`
import { clock, pad } from '../src/format.js';
import * as index from '../src/index.js';

test('the module lives in format.js only', () => {
  assert.equal(clock(605), '10:05');
  assert.equal(pad(5, 2), '05');
  assert.equal(index.clock(0), '00:00');
});
`,
  },
  checks: [{ kind: 'absent', path: 'src/helpers.js' }],
  solution: { 'src/helpers.js': null, 'src/format.js': helpers, 'src/index.js': index('format') },
};
export default task;
