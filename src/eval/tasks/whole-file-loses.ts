import { file, type EvalTask } from '../task.ts';
import { packageJson, TEST_HEAD } from './common.ts';

/** Forty small validators; the one for postcodes is wrong. A whole-file rewrite easily drops some. */
function validators(fixed: boolean): string {
  const parts: string[] = ['// Field validators: each takes a string and says whether it is acceptable.'];
  for (let i = 1; i <= 40; i++) {
    parts.push(
      `export function isField${i}(value) {\n  // Field ${i} accepts ${i} to ${i + 20} characters.\n  return typeof value === 'string' && value.length >= ${i} && value.length <= ${i + 20};\n}`,
    );
    if (i === 20) {
      const re = fixed ? '/^[0-9]{4} ?[A-Z]{2}$/' : '/^[0-9]{4}[A-Z]{2}$/';
      parts.push(
        `export function isPostcode(value) {\n  // A Dutch postcode: four digits, an optional space, two capitals.\n  return ${re}.test(value);\n}`,
      );
    }
  }
  return `${parts.join('\n\n')}\n`;
}
const task: EvalTask = {
  id: 'whole-file-loses',
  title: 'One function in a long file of many',
  statement:
    'isPostcode in src/validators.js must also accept a space between the digits and the letters ("1234 AB" as well as "1234AB"). Fix it; every other validator in the file must stay exactly as it is.',
  mechanisms: ['whole-file-rewrite', 'paging'],
  files: {
    'package.json': packageJson('validators'),
    'src/validators.js': validators(false),
    'test/validators.test.js':
      TEST_HEAD +
      file`
import { isPostcode } from '../src/validators.js';

test('postcodes with and without a space', () => {
  assert.ok(isPostcode('1234AB'));
  assert.ok(isPostcode('1234 AB'));
  assert.ok(!isPostcode('123 AB'));
});
`,
  },
  grader: {
    'validators.test.js':
      TEST_HEAD +
      file`
import * as v from '../src/validators.js';

test('postcode fixed and all forty validators kept', () => {
  assert.ok(v.isPostcode('1234 AB') && v.isPostcode('1234AB') && !v.isPostcode('1234  AB'));
  for (let i = 1; i <= 40; i++) {
    const f = v['isField' + i];
    assert.equal(typeof f, 'function', 'isField' + i + ' is gone');
    assert.ok(f('x'.repeat(i)) && !f('x'.repeat(i + 21)), 'isField' + i + ' changed');
  }
});
`,
  },
  solution: { 'src/validators.js': validators(true) },
};
export default task;
