import { file, type EvalTask } from '../task.ts';
import { packageJson, TEST_HEAD } from './common.ts';

const emitter = (off: string) => file`
export class Emitter {
  #listeners = new Map();

  on(event, fn) {
    const list = this.#listeners.get(event) ?? [];
    list.push(fn);
    this.#listeners.set(event, list);
    return this;
  }

  off(event, fn) {
${off}
    return this;
  }

  emit(event, ...args) {
    for (const fn of this.#listeners.get(event) ?? []) fn(...args);
    return this;
  }
}
`;
const task: EvalTask = {
  id: 'emitter-off',
  title: 'off removes more than it should',
  statement:
    'npm test fails for the Emitter in src/emitter.js. Find the bug from the test output and fix it without changing the tests.',
  mechanisms: ['test-output'],
  files: {
    'package.json': packageJson('emitter'),
    'src/emitter.js': emitter('    this.#listeners.delete(event);'),
    'test/emitter.test.js':
      TEST_HEAD +
      file`
import { Emitter } from '../src/emitter.js';

test('off removes only the listener it names', () => {
  const e = new Emitter();
  const seen = [];
  const a = () => seen.push('a');
  e.on('x', a).on('x', () => seen.push('b')).off('x', a).emit('x');
  assert.deepEqual(seen, ['b']);
});
`,
  },
  grader: {
    'emitter.test.js':
      TEST_HEAD +
      file`
import { Emitter } from '../src/emitter.js';

test('off is precise', () => {
  const e = new Emitter();
  const seen = [];
  const a = (v) => seen.push('a' + v);
  const b = (v) => seen.push('b' + v);
  e.on('x', a).on('x', b).on('y', a);
  e.off('x', a).emit('x', 1).emit('y', 2);
  e.off('x', () => {}).emit('x', 3);
  e.off('nothing', a);
  assert.deepEqual(seen, ['b1', 'a2', 'b3']);
});
`,
  },
  solution: {
    'src/emitter.js': emitter(
      `    const list = this.#listeners.get(event) ?? [];\n    this.#listeners.set(event, list.filter((f) => f !== fn));`,
    ),
  },
};
export default task;
