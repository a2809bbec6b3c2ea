import { file, type EvalTask } from '../task.ts';
import { packageJson, TEST_HEAD } from './common.ts';

const csv = (body: string) => file`
// Splits one CSV line into fields.
export function splitLine(line) {
${body}
}
`;
const task: EvalTask = {
  id: 'csv-quoted',
  title: 'Quoted fields in a CSV splitter',
  statement:
    'splitLine in src/csv.js splits on every comma, so a quoted field such as "Smith, John" is cut in two. Make it honour double-quoted fields (a doubled "" inside quotes is one quote character). Run the tests to check.',
  mechanisms: ['syntax', 'test-output'],
  files: {
    'package.json': packageJson('csv'),
    'src/csv.js': csv("  return line.split(',');"),
    'test/csv.test.js':
      TEST_HEAD +
      file`
import { splitLine } from '../src/csv.js';

test('quoted commas stay in their field', () => {
  assert.deepEqual(splitLine('1,"Smith, John",x'), ['1', 'Smith, John', 'x']);
});
`,
  },
  grader: {
    'csv.test.js':
      TEST_HEAD +
      file`
import { splitLine } from '../src/csv.js';

test('plain, quoted, escaped and empty fields', () => {
  assert.deepEqual(splitLine('a,b,c'), ['a', 'b', 'c']);
  assert.deepEqual(splitLine('"a,b",c'), ['a,b', 'c']);
  assert.deepEqual(splitLine('"say ""hi""",2'), ['say "hi"', '2']);
  assert.deepEqual(splitLine(',,'), ['', '', '']);
  assert.deepEqual(splitLine(''), ['']);
});
`,
  },
  solution: {
    'src/csv.js': csv(
      [
        '  const fields = [];',
        "  let field = '';",
        '  let quoted = false;',
        '  for (let i = 0; i < line.length; i++) {',
        '    const c = line[i];',
        '    if (quoted) {',
        "      if (c === '\"' && line[i + 1] === '\"') {",
        "        field += '\"';",
        '        i++;',
        "      } else if (c === '\"') quoted = false;",
        '      else field += c;',
        "    } else if (c === '\"') quoted = true;",
        "    else if (c === ',') {",
        '      fields.push(field);',
        "      field = '';",
        '    } else field += c;',
        '  }',
        '  fields.push(field);',
        '  return fields;',
      ].join('\n'),
    ),
  },
};
export default task;
