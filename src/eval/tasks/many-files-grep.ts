import { file, type EvalTask } from '../task.ts';
import { packageJson, TEST_HEAD } from './common.ts';

const COUNT = 60;
const BAD = 41;

/** A handler module; every one logs through log(), except one that still calls console.log. */
function handler(i: number, fixed: boolean): string {
  const call = i === BAD && !fixed ? 'console.log' : 'log';
  return `import { log } from '../log.js';\n\n// Handler ${i}: logs what it handles and doubles it.\nexport function handle${i}(x) {\n  ${call}('handler ${i} got ' + x);\n  return x * 2;\n}\n`;
}
const files: Record<string, string> = {
  'package.json': packageJson('handlers'),
  'src/log.js': file`
export const LINES = [];

export function log(line) {
  LINES.push(line);
}
`,
  'test/handlers.test.js': TEST_HEAD + file`
import { LINES } from '../src/log.js';

test('every handler logs through log()', async () => {
  for (let i = 1; i <= 60; i++) (await import('../src/handlers/h' + i + '.js'))['handle' + i](i);
  assert.equal(LINES.length, 60);
});
`,
};
for (let i = 1; i <= COUNT; i++) files[`src/handlers/h${i}.js`] = handler(i, false);

const task: EvalTask = {
  id: 'many-files-grep',
  title: 'One file in sixty still logs the old way',
  statement: 'Every handler under src/handlers/ must log through log() from src/log.js, but one still calls console.log, so npm test fails. Find it and fix it. Change no other handler.',
  mechanisms: ['long-output', 'test-output'],
  files,
  grader: {
    'handlers.test.js': TEST_HEAD + file`
import { readFileSync, readdirSync } from 'node:fs';
import { LINES } from '../src/log.js';

test('sixty handlers, all through log()', async () => {
  assert.equal(readdirSync('src/handlers').length, 60);
  for (let i = 1; i <= 60; i++) {
    const text = readFileSync('src/handlers/h' + i + '.js', 'utf8');
    assert.ok(!text.includes('console.'), 'h' + i);
    assert.equal((await import('../src/handlers/h' + i + '.js'))['handle' + i](i), 2 * i);
  }
  assert.equal(LINES.length, 60);
});
`,
  },
  solution: { [`src/handlers/h${BAD}.js`]: handler(BAD, true) },
};
export default task;
