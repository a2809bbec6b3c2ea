import { file, type EvalTask } from '../task.ts';
import { packageJson, TEST_HEAD } from './common.ts';

const merge = (arrays: string) => file`
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

// Merges settings objects: later ones win, nested objects merge key by key.
export function deepMerge(...sources) {
	const out = {};
	for (const source of sources) {
		for (const [key, value] of Object.entries(source)) {
			if (isObject(value) && isObject(out[key])) {
				out[key] = deepMerge(out[key], value);
			} else if (Array.isArray(value)) {
${arrays}
			} else {
				out[key] = value;
			}
		}
	}
	return out;
}
`;
const task: EvalTask = {
  id: 'deep-merge',
  title: 'A fix in tab-indented nested loops',
  statement:
    'deepMerge in src/merge.js must concatenate arrays (an array under the same key in a later object is appended to the earlier one, and a new copy is made), instead of replacing them. The file is indented with tabs; keep it so.',
  mechanisms: ['indentation'],
  files: {
    'package.json': packageJson('merge'),
    'src/merge.js': merge('\t\t\t\tout[key] = value;'),
    'test/merge.test.js':
      TEST_HEAD +
      file`
import { deepMerge } from '../src/merge.js';

test('arrays concatenate', () => {
  assert.deepEqual(deepMerge({ tags: ['a'] }, { tags: ['b'] }), { tags: ['a', 'b'] });
});
`,
  },
  grader: {
    'merge.test.js':
      TEST_HEAD +
      file`
import { deepMerge } from '../src/merge.js';

test('arrays concatenate into a copy, objects merge', () => {
  const first = { list: [1], nested: { a: 1, more: [2] } };
  const merged = deepMerge(first, { list: [3], nested: { b: 2, more: [4] } }, { x: 1 });
  assert.deepEqual(merged, { list: [1, 3], nested: { a: 1, b: 2, more: [2, 4] }, x: 1 });
  assert.deepEqual(first.list, [1]);
  assert.notEqual(deepMerge({ l: [1] }).l, undefined);
});
`,
  },
  // The file stays indented with tabs: no line may start with spaces.
  checks: [{ kind: 'matches', path: 'src/merge.js', pattern: '^ +\\S', flags: 'm', expect: false }],
  solution: { 'src/merge.js': merge('\t\t\t\tout[key] = [...(Array.isArray(out[key]) ? out[key] : []), ...value];') },
};
export default task;
