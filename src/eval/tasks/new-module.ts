import { file, type EvalTask } from '../task.ts';
import { packageJson, TEST_HEAD } from './common.ts';

const index = (more: string) => file`
export { capitalize } from './capitalize.js';
${more}`;
const task: EvalTask = {
  id: 'new-module',
  title: 'Add a module and export it',
  statement:
    'Add src/slugify.js exporting slugify(text): lowercase, every run of characters other than a-z and 0-9 becomes one "-", no "-" at either end ("Hello, World!" → "hello-world"). Export it from src/index.js too.',
  mechanisms: ['new-file', 'multi-file'],
  files: {
    'package.json': packageJson('slugs'),
    'src/capitalize.js': file`
export function capitalize(word) {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
`,
    'src/index.js': index(''),
    'test/slugify.test.js':
      TEST_HEAD +
      file`
import { slugify } from '../src/index.js';

test('slugify', () => {
  assert.equal(slugify('Hello, World!'), 'hello-world');
});
`,
  },
  grader: {
    'slugify.test.js':
      TEST_HEAD +
      file`
import { slugify } from '../src/slugify.js';
import * as index from '../src/index.js';

test('slugify in its own module and in the index', () => {
  assert.equal(slugify('  Déjà vu -- 2 times  '), 'd-j-vu-2-times');
  assert.equal(slugify('ABC'), 'abc');
  assert.equal(slugify('--'), '');
  assert.equal(index.slugify('a b'), 'a-b');
  assert.equal(index.capitalize('x'), 'X');
});
`,
  },
  solution: {
    'src/slugify.js': file`
export function slugify(text) {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
}
`,
    'src/index.js': index("export { slugify } from './slugify.js';\n"),
  },
};
export default task;
