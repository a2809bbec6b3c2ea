import { file, type EvalTask } from '../task.ts';
import { packageJson, TEST_HEAD } from './common.ts';

const prices = (yen: string) => file`
// Formats an amount for display in one currency.
export function formatEuro(amount) {
  const rounded = Math.round(amount * 100) / 100;
  return rounded.toFixed(2) + ' EUR';
}

export function formatDollar(amount) {
  const rounded = Math.round(amount * 100) / 100;
  return rounded.toFixed(2) + ' USD';
}

export function formatYen(amount) {
${yen}
}

export function formatPound(amount) {
  const rounded = Math.round(amount * 100) / 100;
  return rounded.toFixed(2) + ' GBP';
}
`;

const task: EvalTask = {
  id: 'repeated-span',
  title: 'One of four identical bodies must change',
  statement:
    'Yen has no minor unit: formatYen(1234.56) must give "1235 JPY" (rounded to a whole number, no decimals). Fix formatYen in src/prices.js; the other currencies must keep two decimals.',
  mechanisms: ['repeated-span'],
  files: {
    'package.json': packageJson('prices'),
    'src/prices.js': prices(`  const rounded = Math.round(amount * 100) / 100;\n  return rounded.toFixed(2) + ' JPY';`),
    'test/prices.test.js':
      TEST_HEAD +
      file`
import { formatYen } from '../src/prices.js';

test('yen has no decimals', () => {
  assert.equal(formatYen(1234.56), '1235 JPY');
});
`,
  },
  grader: {
    'prices.test.js':
      TEST_HEAD +
      file`
import { formatDollar, formatEuro, formatPound, formatYen } from '../src/prices.js';

test('yen rounds to whole units, the others keep cents', () => {
  assert.equal(formatYen(1234.56), '1235 JPY');
  assert.equal(formatYen(10), '10 JPY');
  assert.equal(formatEuro(1.005), '1.00 EUR');
  assert.equal(formatDollar(2.5), '2.50 USD');
  assert.equal(formatPound(3.333), '3.33 GBP');
});
`,
  },
  solution: { 'src/prices.js': prices(`  return Math.round(amount).toFixed(0) + ' JPY';`) },
};
export default task;
