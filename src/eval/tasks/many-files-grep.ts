import { file, type EvalTask } from '../task.ts';
import { packageJson, TEST_HEAD } from './common.ts';

const COUNT = 60;
const BAD = 41;

/** A handler module; every one logs through log(), except one that still calls console.log. */
function handler(i: number, fixed: boolean): string {
  const call = i === BAD && !fixed ? 'console.log' : 'log';
  return `import { log } from '../log.js';\n\n// Handler ${i}: logs what it handles and doubles it.\nexport function handle${i}(x) {\n  ${call}('handler ${i} got ' + x);\n  return x * 2;\n}\n`;
}
/** A test that imports every handler (statically: the browser's sandbox runs it too) and calls each once. */
function handlersTest(name: string): string {
  const imports = Array.from(
    { length: COUNT },
    (_, i) => `import { handle${i + 1} } from '../src/handlers/h${i + 1}.js';`,
  ).join('\n');
  const calls = Array.from({ length: COUNT }, (_, i) => `handle${i + 1}`).join(', ');
  return `${TEST_HEAD}import { LINES } from '../src/log.js';\n${imports}\n\ntest('${name}', () => {\n  [${calls}].forEach((handle, i) => assert.equal(handle(i + 1), 2 * (i + 1)));\n  assert.equal(LINES.length, ${COUNT});\n});\n`;
}

const files: Record<string, string> = {
  'package.json': packageJson('handlers'),
  'src/log.js': file`
export const LINES = [];

export function log(line) {
  LINES.push(line);
}
`,
  'test/handlers.test.js': handlersTest('every handler logs through log()'),
};
for (let i = 1; i <= COUNT; i++) files[`src/handlers/h${i}.js`] = handler(i, false);

const task: EvalTask = {
  id: 'many-files-grep',
  title: 'One file in sixty still logs the old way',
  statement:
    'Every handler under src/handlers/ must log through log() from src/log.js, but one still calls console.log, so npm test fails. Find it and fix it. Change no other handler.',
  mechanisms: ['long-output', 'test-output'],
  files,
  grader: { 'handlers.test.js': handlersTest('sixty handlers, each doubling and logging through log()') },
  checks: Array.from({ length: COUNT }, (_, i) => ({
    kind: 'matches' as const,
    path: `src/handlers/h${i + 1}.js`,
    pattern: String.raw`\bconsole\.`,
    expect: false,
  })),
  solution: { [`src/handlers/h${BAD}.js`]: handler(BAD, true) },
};
export default task;
