import { file, type EvalTask } from '../task.ts';
import { packageJson, TEST_HEAD } from './common.ts';

const config = (rate: string) => file`
export const CONFIG = {
  currency: 'EUR',
  vatRate: ${rate},
  roundTo: 0.01,
};
`;
const invoice = (rate: string) => file`
import { CONFIG } from './config.js';

export function net(lines) {
  return lines.reduce((s, l) => s + l.qty * l.price, 0);
}

export function vat(lines) {
  return round(net(lines) * CONFIG.vatRate);
}

// The receipt footer repeats the rate for the printed text.
export function footer() {
  return 'VAT ' + Math.round(${rate} * 100) + '% included';
}

function round(x) {
  return Math.round(x / CONFIG.roundTo) * CONFIG.roundTo;
}
`;
const task: EvalTask = {
  id: 'tax-two-files',
  title: 'A rate that lives in two files',
  statement:
    'The VAT rate rises from 20% to 21%. Update it everywhere in src/ so that both the computed VAT and the receipt footer use 21%.',
  mechanisms: ['multi-file', 'repeated-span'],
  files: {
    'package.json': packageJson('invoice'),
    'src/config.js': config('0.2'),
    'src/invoice.js': invoice('0.2'),
    'test/invoice.test.js':
      TEST_HEAD +
      file`
import { vat } from '../src/invoice.js';

test('vat is 21%', () => {
  assert.equal(vat([{ qty: 1, price: 100 }]), 21);
});
`,
  },
  grader: {
    'invoice.test.js':
      TEST_HEAD +
      file`
import { footer, net, vat } from '../src/invoice.js';
import { CONFIG } from '../src/config.js';

test('21% in the computation and in the footer', () => {
  assert.equal(CONFIG.vatRate, 0.21);
  assert.equal(vat([{ qty: 2, price: 50 }]), 21);
  assert.equal(net([{ qty: 3, price: 2 }]), 6);
  assert.equal(footer(), 'VAT 21% included');
});
`,
  },
  solution: { 'src/config.js': config('0.21'), 'src/invoice.js': invoice('CONFIG.vatRate') },
};
export default task;
