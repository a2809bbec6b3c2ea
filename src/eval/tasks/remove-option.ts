import { file, type EvalTask } from '../task.ts';
import { packageJson, TEST_HEAD } from './common.ts';

const defaults = (legacy: boolean) => file`
export const DEFAULTS = {
  retries: 3,
${legacy ? '  legacyMode: false,\n' : ''}  timeoutMs: 1000,
};
`;
const client = (legacy: boolean) => file`
import { DEFAULTS } from './defaults.js';

export function makeClient(options = {}) {
  const o = { ...DEFAULTS, ...options };
${legacy ? "  if (o.legacyMode) return { mode: 'legacy', retries: 0, timeoutMs: o.timeoutMs };\n" : ''}  return { mode: 'modern', retries: o.retries, timeoutMs: o.timeoutMs };
}
`;
const docs = (legacy: boolean) => file`
# Client options

- retries: how often a request is retried (default 3)
${legacy ? '- legacyMode: use the old protocol (default false)\n' : ''}- timeoutMs: how long to wait (default 1000)
`;
const task: EvalTask = {
  id: 'remove-option',
  title: 'Remove an option from code, defaults and docs',
  statement:
    'Remove the legacyMode option entirely: from src/defaults.js, from makeClient in src/client.js (a client is always modern now) and from docs/options.md. Nothing may mention legacyMode afterwards.',
  mechanisms: ['multi-file', 'repeated-span'],
  files: {
    'package.json': packageJson('client'),
    'src/defaults.js': defaults(true),
    'src/client.js': client(true),
    'docs/options.md': docs(true),
    'test/client.test.js':
      TEST_HEAD +
      file`
import { makeClient } from '../src/client.js';

test('clients are modern', () => {
  assert.equal(makeClient({ legacyMode: true }).mode, 'modern');
});
`,
  },
  grader: {
    'client.test.js':
      TEST_HEAD +
      file`
import { makeClient } from '../src/client.js';
import { DEFAULTS } from '../src/defaults.js';

test('legacyMode is gone everywhere', () => {
  assert.deepEqual(makeClient({ legacyMode: true, retries: 1 }), { mode: 'modern', retries: 1, timeoutMs: 1000 });
  assert.deepEqual(DEFAULTS, { retries: 3, timeoutMs: 1000 });
});
`,
  },
  checks: [
    ...['src/defaults.js', 'src/client.js', 'docs/options.md'].map((path) => ({
      kind: 'matches' as const,
      path,
      pattern: 'legacyMode',
      expect: false,
    })),
    { kind: 'matches', path: 'docs/options.md', pattern: '^- retries: .*\\n- timeoutMs: ', flags: 'm', expect: true },
  ],
  solution: { 'src/defaults.js': defaults(false), 'src/client.js': client(false), 'docs/options.md': docs(false) },
};
export default task;
