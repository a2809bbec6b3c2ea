import { type EvalTask, file } from '../task.ts';
import { packageJson, TEST_HEAD } from './common.ts';

/** A file whose lines carry trailing spaces and whose blank lines hold spaces: what a recalled old_str leaves out. */
const greet = (word: string) =>
  [
    '// Greetings for the front page.   ',
    'export function greet(name) {  ',
    "  const who = name || 'friend';    ",
    '    ',
    `  return '${word}, ' + who + '!';  `,
    '}  ',
    '',
  ].join('\n');
const task: EvalTask = {
  id: 'trailing-whitespace',
  title: 'An edit in a file full of trailing spaces',
  statement: 'greet in src/greet.js should say "Welcome" instead of "Hello". Change only that word.',
  mechanisms: ['whitespace'],
  files: {
    'package.json': packageJson('greet'),
    'src/greet.js': greet('Hello'),
    'test/greet.test.js':
      TEST_HEAD +
      file`
import { greet } from '../src/greet.js';

test('welcome', () => {
  assert.equal(greet('Ada'), 'Welcome, Ada!');
});
`,
  },
  grader: {
    'greet.test.js':
      TEST_HEAD +
      file`
import { greet } from '../src/greet.js';

test('welcome, with the default name', () => {
  assert.equal(greet('Ada'), 'Welcome, Ada!');
  assert.equal(greet(''), 'Welcome, friend!');
});
`,
  },
  solution: { 'src/greet.js': greet('Welcome') },
};
export default task;
