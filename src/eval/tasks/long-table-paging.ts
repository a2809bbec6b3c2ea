import { file, type EvalTask } from '../task.ts';
import { packageJson, TEST_HEAD } from './common.ts';

/** 300 unit rows; one factor near the end is wrong, far past the first read window. */
function units(wrong: boolean): string {
  const rows: string[] = [];
  for (let i = 1; i <= 300; i++) {
    const factor = i === 287 ? (wrong ? 1000.1 : 1000) : i * 10;
    rows.push(`  { name: 'unit${i}', factor: ${factor} },`);
  }
  return `// Conversion factors to the base unit, one row per unit.\nexport const UNITS = [\n${rows.join('\n')}\n];\n\nexport function toBase(name, value) {\n  const unit = UNITS.find((u) => u.name === name);\n  if (!unit) throw new Error('unknown unit ' + name);\n  return value * unit.factor;\n}\n`;
}

const task: EvalTask = {
  id: 'long-table-paging',
  title: 'A wrong factor deep in a long table',
  statement:
    'npm test fails: converting unit287 gives the wrong result. Fix the factor in src/units.js (it should be exactly 1000) without changing anything else.',
  mechanisms: ['paging', 'test-output'],
  files: {
    'package.json': packageJson('long-table'),
    'src/units.js': units(true),
    'test/units.test.js':
      TEST_HEAD +
      file`
import { toBase } from '../src/units.js';

test('unit287 converts by 1000', () => {
  assert.equal(toBase('unit287', 2), 2000);
});
`,
  },
  grader: {
    'units.test.js':
      TEST_HEAD +
      file`
import { toBase, UNITS } from '../src/units.js';

test('unit287 is 1000 and every other row is untouched', () => {
  assert.equal(toBase('unit287', 3), 3000);
  assert.equal(UNITS.length, 300);
  for (const u of UNITS) if (u.name !== 'unit287') assert.equal(u.factor, Number(u.name.slice(4)) * 10);
});
`,
  },
  solution: { 'src/units.js': units(false) },
};
export default task;
