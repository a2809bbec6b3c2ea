import { file, type EvalTask } from '../task.ts';
import { packageJson, TEST_HEAD } from './common.ts';

/** A 420-line module of small formatters; the discount rule sits in the middle, past the first page. */
function shop(fixed: boolean): string {
  const parts: string[] = ['// Shop helpers: one small function per concern.'];
  for (let i = 1; i <= 50; i++) {
    parts.push(
      `export function label${i}(item) {\n  // Label style ${i}.\n  const name = String(item.name).trim();\n  const price = Number(item.price).toFixed(2);\n  return '[${i}] ' + name + ' ' + price;\n}`,
    );
    if (i === 25) {
      const limit = fixed ? 'qty >= 10' : 'qty > 10';
      parts.push(
        `// Bulk orders of ten or more get 10% off.\nexport function discount(qty, price) {\n  const total = qty * price;\n  return ${limit} ? total * 0.9 : total;\n}`,
      );
    }
  }
  return `${parts.join('\n\n')}\n`;
}
const task: EvalTask = {
  id: 'middle-of-long-file',
  title: 'A boundary bug in the middle of a long file',
  statement:
    'Bulk orders of ten or more items get 10% off, but discount in src/shop.js gives nothing for exactly 10 items. Fix the boundary.',
  mechanisms: ['paging'],
  files: {
    'package.json': packageJson('shop'),
    'src/shop.js': shop(false),
    'test/shop.test.js':
      TEST_HEAD +
      file`
import { discount } from '../src/shop.js';

test('ten items get the discount', () => {
  assert.equal(discount(10, 10), 90);
});
`,
  },
  grader: {
    'shop.test.js':
      TEST_HEAD +
      file`
import * as shop from '../src/shop.js';

test('the boundary, and every label kept', () => {
  assert.equal(shop.discount(10, 10), 90);
  assert.equal(shop.discount(9, 10), 90);
  assert.equal(shop.discount(20, 1), 18);
  for (let i = 1; i <= 50; i++) assert.equal(shop['label' + i]({ name: ' a ', price: 1 }), '[' + i + '] a 1.00');
});
`,
  },
  solution: { 'src/shop.js': shop(true) },
};
export default task;
