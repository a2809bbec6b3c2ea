import { file, type EvalTask } from '../task.ts';
import { packageJson, TEST_HEAD } from './common.ts';

const stats = (median: string) => file`
export function mean(xs) {
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
${median}
}
`;
const task: EvalTask = {
  id: 'noisy-test',
  title: 'A failure buried under a flood of log lines',
  statement:
    'npm test fails, and its test prints thousands of progress lines first. Find which assertion fails and fix src/stats.js. Do not change the tests.',
  mechanisms: ['long-output', 'test-output'],
  files: {
    'package.json': packageJson('stats'),
    'src/stats.js': stats('  return s[mid];'),
    'test/stats.test.js':
      TEST_HEAD +
      file`
import { mean, median } from '../src/stats.js';

test('mean and median over many samples', () => {
  for (let i = 0; i < 3000; i++) console.log('sample ' + i + ': mean ' + mean([i, i + 2]));
  assert.equal(median([1, 3, 2]), 2);
  assert.equal(median([4, 1, 3, 2]), 2.5);
});
`,
  },
  grader: {
    'stats.test.js':
      TEST_HEAD +
      file`
import { mean, median } from '../src/stats.js';

test('median of odd and even lengths', () => {
  assert.equal(median([5]), 5);
  assert.equal(median([1, 3, 2]), 2);
  assert.equal(median([4, 1, 3, 2]), 2.5);
  assert.equal(median([10, 0]), 5);
  assert.equal(mean([1, 2]), 1.5);
});
`,
  },
  solution: { 'src/stats.js': stats('  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;') },
};
export default task;
