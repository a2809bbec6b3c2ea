import { file, type EvalTask } from '../task.ts';
import { packageJson, TEST_HEAD } from './common.ts';

const users = (name: string) => file`
const USERS = [
  { id: 1, name: 'Ada' },
  { id: 2, name: 'Grace' },
];

export function ${name}(id) {
  return USERS.find((u) => u.id === id) ?? null;
}
`;
const api = (name: string) => file`
import { ${name} } from './users.js';

export function handle(request) {
  const user = ${name}(request.id);
  return user ? { status: 200, body: user } : { status: 404, body: null };
}
`;
const report = (name: string) => file`
import { ${name} } from './users.js';

export function greeting(id) {
  const user = ${name}(id);
  return user ? 'Hello, ' + user.name : 'Hello, stranger';
}
`;

const task: EvalTask = {
  id: 'rename-function',
  title: 'Rename a function everywhere it is used',
  statement:
    'Rename the function getUsr to getUser in src/users.js and in every file that uses it (the tests already import getUser). No file may still mention getUsr.',
  mechanisms: ['rename', 'multi-file'],
  files: {
    'package.json': packageJson('users'),
    'src/users.js': users('getUsr'),
    'src/api.js': api('getUsr'),
    'src/report.js': report('getUsr'),
    'test/users.test.js':
      TEST_HEAD +
      file`
import { getUser } from '../src/users.js';
import { handle } from '../src/api.js';
import { greeting } from '../src/report.js';

test('getUser finds by id', () => {
  assert.equal(getUser(2).name, 'Grace');
  assert.equal(handle({ id: 9 }).status, 404);
  assert.equal(greeting(1), 'Hello, Ada');
});
`,
  },
  grader: {
    'rename.test.js':
      TEST_HEAD +
      file`
import * as users from '../src/users.js';
import { handle } from '../src/api.js';
import { greeting } from '../src/report.js';

test('getUser is the only name, and every caller works', () => {
  assert.equal(typeof users.getUser, 'function');
  assert.equal(users.getUsr, undefined);
  assert.equal(handle({ id: 1 }).body.name, 'Ada');
  assert.equal(greeting(3), 'Hello, stranger');
});
`,
  },
  checks: ['src/users.js', 'src/api.js', 'src/report.js'].map((path) => ({
    kind: 'matches' as const,
    path,
    pattern: 'getUsr',
    expect: false,
  })),
  solution: { 'src/users.js': users('getUser'), 'src/api.js': api('getUser'), 'src/report.js': report('getUser') },
};
export default task;
