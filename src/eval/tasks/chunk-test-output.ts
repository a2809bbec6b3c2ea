import { file, type EvalTask } from '../task.ts';
import { packageJson, TEST_HEAD } from './common.ts';

const lists = (cond: string) => file`
export function chunk(list, size) {
  if (size < 1) throw new RangeError('size must be at least 1');
  const out = [];
  for (let i = 0; ${cond}; i += size) out.push(list.slice(i, i + size));
  return out;
}

export function flatten(chunks) {
  return chunks.flat();
}
`;
const task: EvalTask = {
  id: 'chunk-test-output',
  title: 'A bug found by reading the failing test',
  statement:
    'npm test fails. Run it, read what the failing test prints, and fix the library in src/ so that every test passes. Do not change the tests.',
  mechanisms: ['test-output'],
  files: {
    'package.json': packageJson('lists'),
    'src/lists.js': lists('i + size <= list.length'),
    'test/lists.test.js':
      TEST_HEAD +
      file`
import { chunk, flatten } from '../src/lists.js';

test('chunk keeps a short last chunk', () => {
  assert.deepEqual(chunk([1, 2, 3, 4, 5], 2), [[1, 2], [3, 4], [5]]);
});
test('flatten undoes chunk', () => {
  assert.deepEqual(flatten(chunk([1, 2, 3], 3)), [1, 2, 3]);
});
`,
  },
  grader: {
    'lists.test.js':
      TEST_HEAD +
      file`
import { chunk } from '../src/lists.js';

test('chunk covers every element', () => {
  assert.deepEqual(chunk([1, 2, 3, 4, 5], 2), [[1, 2], [3, 4], [5]]);
  assert.deepEqual(chunk([1, 2, 3, 4], 2), [[1, 2], [3, 4]]);
  assert.deepEqual(chunk([], 3), []);
  assert.deepEqual(chunk([1], 5), [[1]]);
  assert.throws(() => chunk([1], 0), RangeError);
});
`,
  },
  solution: { 'src/lists.js': lists('i < list.length') },
};
export default task;
