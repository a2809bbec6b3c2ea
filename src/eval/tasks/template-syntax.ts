import { file, type EvalTask } from '../task.ts';
import { packageJson, TEST_HEAD } from './common.ts';

const render = (attrs: string) => file`
// Renders a tag from a tree of plain objects: { tag, attrs, children }.
export function render(node) {
  if (typeof node === 'string') return escape(node);
  const attrs = Object.entries(node.attrs ?? {})
${attrs}
  const inner = (node.children ?? []).map((c) => render(c)).join('');
  return '<' + node.tag + attrs + '>' + inner + '</' + node.tag + '>';
}

function escape(text) {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
}
`;
const task: EvalTask = {
  id: 'template-syntax',
  title: 'A bracket-heavy fix that is easy to leave unparseable',
  statement:
    'render in src/render.js writes attribute values without escaping them, so a value with a double quote breaks the HTML. Escape attribute values with the escape function already in the file. Also sort the attributes by name so the output is stable.',
  mechanisms: ['syntax'],
  files: {
    'package.json': packageJson('render'),
    'src/render.js': render(`    .map(([k, v]) => ' ' + k + '="' + v + '"')\n    .join('');`),
    'test/render.test.js':
      TEST_HEAD +
      file`
import { render } from '../src/render.js';

test('attribute values are escaped', () => {
  assert.equal(render({ tag: 'a', attrs: { title: 'say "hi"' }, children: ['x'] }), '<a title="say &quot;hi&quot;">x</a>');
});
`,
  },
  grader: {
    'render.test.js':
      TEST_HEAD +
      file`
import { render } from '../src/render.js';

test('escaped and sorted attributes, escaped text', () => {
  assert.equal(render({ tag: 'p', attrs: { z: '1', a: '<b>' }, children: ['a & b', { tag: 'i', children: ['x'] }] }), '<p a="&lt;b&gt;" z="1">a &amp; b<i>x</i></p>');
  assert.equal(render({ tag: 'br' }), '<br></br>');
});
`,
  },
  solution: {
    'src/render.js': render(
      `    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))\n    .map(([k, v]) => ' ' + k + '="' + escape(String(v)) + '"')\n    .join('');`,
    ),
  },
};
export default task;
