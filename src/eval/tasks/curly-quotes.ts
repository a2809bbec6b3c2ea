import { file, type EvalTask } from '../task.ts';
import { packageJson, TEST_HEAD } from './common.ts';

const messages = (word: string) => file`
// Messages shown to people; they use typographic quotes and dashes on purpose.
export const MESSAGES = {
  saved: '“Saved” — your changes are safe.',
  deleted: '“Deleted” — this cannot be undone.',
  offline: '“Offline” — ${word} when the connection is back.',
};

export function message(key) {
  return MESSAGES[key] ?? '“Unknown” — no such message.';
}
`;
const task: EvalTask = {
  id: 'curly-quotes',
  title: 'Change a string that uses typographic quotes',
  statement:
    'The offline message in src/messages.js should say "we will sync" instead of "we will retry". Keep the typographic quotes (“ ”) and the em dash (—) exactly as they are.',
  mechanisms: ['quotes'],
  files: {
    'package.json': packageJson('messages'),
    'src/messages.js': messages('we will retry'),
    'test/messages.test.js':
      TEST_HEAD +
      file`
import { message } from '../src/messages.js';

test('offline says sync', () => {
  assert.ok(message('offline').includes('we will sync'));
});
`,
  },
  grader: {
    'messages.test.js':
      TEST_HEAD +
      file`
import { message, MESSAGES } from '../src/messages.js';

test('the offline message changed, typography kept', () => {
  assert.equal(message('offline'), '\u201cOffline\u201d \u2014 we will sync when the connection is back.');
  assert.equal(MESSAGES.saved, '\u201cSaved\u201d \u2014 your changes are safe.');
  assert.equal(message('nope'), '\u201cUnknown\u201d \u2014 no such message.');
});
`,
  },
  solution: { 'src/messages.js': messages('we will sync') },
};
export default task;
