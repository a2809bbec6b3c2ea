import { file, type EvalTask } from '../task.ts';
import { packageJson, TEST_HEAD } from './common.ts';

const rules = (cmp: string) => file`
// Decides the shipping rate for an order.
export function shippingRate(order) {
    if (order.items.length > 0) {
        if (order.country === 'NL') {
            if (order.express) {
                return 15;
            } else {
                for (const item of order.items) {
                    if (item.fragile) {
                        if (item.weight ${cmp} 10) {
                            return 12;
                        }
                    }
                }
                return 5;
            }
        } else {
            return 20;
        }
    }
    return 0;
}
`;
const task: EvalTask = {
  id: 'nested-indent',
  title: 'A comparison five levels deep',
  statement:
    'A fragile item of exactly 10 kg shipped in NL without express must cost 12 (the heavy-fragile rate), but shippingRate in src/shipping.js returns 5. Fix the comparison; change nothing else.',
  mechanisms: ['indentation'],
  files: {
    'package.json': packageJson('shipping'),
    'src/shipping.js': rules('>'),
    'test/shipping.test.js':
      TEST_HEAD +
      file`
import { shippingRate } from '../src/shipping.js';

test('10 kg fragile is heavy', () => {
  assert.equal(shippingRate({ country: 'NL', express: false, items: [{ fragile: true, weight: 10 }] }), 12);
});
`,
  },
  grader: {
    'shipping.test.js':
      TEST_HEAD +
      file`
import { shippingRate } from '../src/shipping.js';

const nl = (items, express = false) => ({ country: 'NL', express, items });
test('every branch keeps its rate', () => {
  assert.equal(shippingRate(nl([{ fragile: true, weight: 10 }])), 12);
  assert.equal(shippingRate(nl([{ fragile: true, weight: 9 }])), 5);
  assert.equal(shippingRate(nl([{ fragile: false, weight: 50 }])), 5);
  assert.equal(shippingRate(nl([{ fragile: true, weight: 10 }], true)), 15);
  assert.equal(shippingRate({ country: 'BE', items: [{}] }), 20);
  assert.equal(shippingRate(nl([])), 0);
});
`,
  },
  solution: { 'src/shipping.js': rules('>=') },
};
export default task;
