import { file, type EvalTask } from '../task.ts';
import { packageJson, TEST_HEAD } from './common.ts';

const js = (sig: string, body: string) => file`
/** Repeats a word. */
export function repeat(${sig}) {
${body}
}
`;
const dts = (sig: string) => file`
/** Repeats a word. */
export declare function repeat(${sig}): string;
`;
const task: EvalTask = {
  id: 'dts-param',
  title: 'Change a signature and its TypeScript declaration',
  statement:
    'Give repeat in src/repeat.js a third, optional parameter separator (default ""), placed between the copies: repeat("ab", 3, "-") is "ab-ab-ab". Update its TypeScript declaration in src/repeat.d.ts to match (separator?: string).',
  mechanisms: ['multi-file', 'syntax'],
  files: {
    'package.json': packageJson('repeat'),
    'src/repeat.js': js('word, times', '  return word.repeat(times);'),
    'src/repeat.d.ts': dts('word: string, times: number'),
    'test/repeat.test.js':
      TEST_HEAD +
      file`
import { repeat } from '../src/repeat.js';

test('separator', () => {
  assert.equal(repeat('ab', 3, '-'), 'ab-ab-ab');
});
`,
  },
  grader: {
    'repeat.test.js':
      TEST_HEAD +
      file`
import { repeat } from '../src/repeat.js';

test('behaviour and declaration agree', () => {
  assert.equal(repeat('ab', 3, '-'), 'ab-ab-ab');
  assert.equal(repeat('x', 2), 'xx');
  assert.equal(repeat('x', 0, ','), '');
});
`,
  },
  checks: [
    {
      kind: 'matches',
      path: 'src/repeat.d.ts',
      pattern: String.raw`repeat\(\s*word:\s*string,\s*times:\s*number,\s*separator\?:\s*string\s*\):\s*string`,
      expect: true,
    },
  ],
  solution: {
    'src/repeat.js': js(
      "word, times, separator = ''",
      '  return Array.from({ length: times }, () => word).join(separator);',
    ),
    'src/repeat.d.ts': dts('word: string, times: number, separator?: string'),
  },
};
export default task;
