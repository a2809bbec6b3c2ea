import { describe, expect, it } from 'vitest';
import { exerciseTask, languageOf, taskId, unskip, type ExerciseFolder } from './exercism.ts';
import { solvedFiles } from './task.ts';

const config = (files: object) => JSON.stringify({ files });
const folder = (slug: string, files: Record<string, string>): ExerciseFolder => ({
  slug,
  files: new Map(Object.entries(files)),
});
const js = folder('two-words', {
  '.meta/config.json': config({ solution: ['two.js'], test: ['two.spec.js'], example: ['.meta/proof.ci.js'] }),
  '.docs/instructions.md': '# Instructions\n\nJoin two words.\n',
  'two.js': 'export const two = () => {};\n',
  'two.spec.js': "import { two } from './two';\ntest('a', () => {});\nxtest('b', () => {});\n",
  '.meta/proof.ci.js': 'export const two = (a, b) => `${a} ${b}`;\n',
  'package.json': '{"scripts": {"test": "jest ./*"}}',
  'babel.config.js': 'module.exports = {};\n',
});

describe('unskip', () => {
  it.each([
    ["xtest('a', f)", "test('a', f)"],
    ["xit('a', f)", "it('a', f)"],
    ["xdescribe('a', f)", "describe('a', f)"],
    ["test.skip('a', f)", "test('a', f)"],
    ["it.skip('a', f)", "it('a', f)"],
    ['test.skip.each([[1]])("%i", f)', 'test.each([[1]])("%i", f)'],
    ['xtest.each([[1]])("%i", f)', 'test.each([[1]])("%i", f)'],
    ["maxtest('a')", "maxtest('a')"], // only whole words
    ["const skip = test.skipped('a')", "const skip = test.skipped('a')"],
  ])('javascript: %s → %s', (before, after) => {
    expect(unskip(before, 'javascript')).toBe(after);
  });

  it.each([
    ['    @unittest.skip("later")\n    def test_a(self):\n', '    def test_a(self):\n'],
    ['    @unittest.skipIf(True, "x")\n    def test_a(self):\n', '    def test_a(self):\n'],
    ['    @skip("later")\n    def test_a(self):\n', '    def test_a(self):\n'],
    [
      '    @unittest.expectedFailure\n    def test_a(self):\n',
      '    @unittest.expectedFailure\n    def test_a(self):\n',
    ],
  ])('python: %j', (before, after) => {
    expect(unskip(before, 'python')).toBe(after);
  });
});

describe('exerciseTask', () => {
  it('starts from the stub, shows and grades the unskipped tests, keeps the example as the solution', () => {
    const out = exerciseTask(js);
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    const t = out.task;
    expect(t).toMatchObject({
      id: 'two-words',
      title: 'Two words',
      language: 'javascript',
      mechanisms: [],
      grader_dir: '',
    });
    expect(t.test_command).toBe('jest two.spec.js');
    expect(Object.keys(t.files).sort()).toEqual(['package.json', 'two.js', 'two.spec.js']);
    expect(t.files['two.spec.js']).toContain("test('b'");
    expect(t.grader['two.spec.js']).toBe(t.files['two.spec.js']);
    expect(t.grader['package.json']).toBe(t.files['package.json']);
    expect(solvedFiles(t)['two.js']).toContain('`${a} ${b}`');
    expect(t.statement).toMatch(
      /^# Instructions\n\nJoin two words\.\n\nThe tests are in two\.spec\.js; make them pass by changing two\.js\.$/,
    );
  });

  it('runs a Python exercise with unittest by module name', () => {
    const out = exerciseTask(
      folder('vowels', {
        '.meta/config.json': config({
          solution: ['vowels.py'],
          test: ['vowels_test.py'],
          example: ['.meta/example.py'],
        }),
        '.docs/instructions.md': 'Count vowels.',
        '.docs/instructions.append.md': 'Either case.',
        'vowels.py': 'def count(t):\n    pass\n',
        'vowels_test.py': 'import unittest\n',
        '.meta/example.py': 'def count(t):\n    return 0\n',
      }),
    );
    expect(out).toMatchObject({
      ok: true,
      task: { language: 'python', test_command: 'python3 -m unittest vowels_test' },
    });
    if (out.ok) expect(out.task.statement).toContain('Count vowels.\n\nEither case.');
  });

  const without = (path: string) => folder('x', Object.fromEntries([...js.files].filter(([p]) => p !== path)));
  it.each<[string, ExerciseFolder, RegExp]>([
    ['no config', without('.meta/config.json'), /no \.meta\/config\.json/],
    ['no instructions', without('.docs/instructions.md'), /no \.docs\/instructions\.md/],
    [
      'a listed file missing',
      without('.meta/proof.ci.js'),
      /listed in \.meta\/config\.json but not in the folder: \.meta\/proof\.ci\.js/,
    ],
    ['a config without files', folder('x', { '.meta/config.json': '{}' }), /does not list files\.solution/],
    ['a config that is not JSON', folder('x', { '.meta/config.json': '{' }), /does not list files\.solution/],
    [
      'another language',
      folder('x', { '.meta/config.json': config({ solution: ['a.go'], test: ['a_test.go'], example: ['e.go'] }) }),
      /a\.go is in a language tasks cannot be in/,
    ],
    [
      'instructions over the cap',
      folder('x', { ...Object.fromEntries(js.files), '.docs/instructions.md': 'x'.repeat(16_001) }),
      /characters; a task statement holds at most 16000/,
    ],
  ])('says why it cannot import %s', (_what, ex, why) => {
    const out = exerciseTask(ex);
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.why).toMatch(why);
  });

  it('leaves out another language when one is asked for, saying so', () => {
    expect(exerciseTask(js, 'python')).toMatchObject({
      ok: false,
      why: 'in javascript, not python',
      otherLanguage: true,
    });
  });
});

describe('names', () => {
  it.each([
    ['Two_Fer', 'two-fer'],
    ['--x--', 'x'],
    ['a'.repeat(80), 'a'.repeat(64)],
  ])('taskId(%s) = %s', (slug, id) => expect(taskId(slug)).toBe(id));
  it.each([
    ['a.js', 'javascript'],
    ['a.mjs', 'javascript'],
    ['a.ts', 'typescript'],
    ['a.py', 'python'],
    ['a.go', undefined],
  ])('languageOf(%s) = %s', (p, l) => expect(languageOf(p)).toBe(l));
});
