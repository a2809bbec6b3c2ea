/**
 * The Python lesson: a small grade-book project whose unittest tests find a bug, and the
 * model's outputs for it. The model breaks the file's syntax while fixing the bug; the post-edit
 * check is CPython's own compile() — Python is loaded by then, since the lesson's first step runs
 * the tests — so the revert quotes the compiler's message. The tests print nothing that changes
 * from one Python to another but unittest's timing line, which ws_test drops, so the host's
 * python3 (recording, `slm replay`) and the tab's Pyodide tell the same story.
 */
import type { LessonScript } from './make-lessons.ts';

/** A grade book: `average` floors where it should divide. */
export const GRADES_FILES: Readonly<Record<string, string>> = {
  'grades.py': [
    '"""A class\'s grade book: the average of its scores and the letter for one score."""',
    '',
    '',
    'def average(scores):',
    '    """The mean of the scores, 0.0 for none: average([90, 85]) == 87.5."""',
    '    if not scores:',
    '        return 0.0',
    '    return sum(scores) // len(scores)',
    '',
    '',
    'def letter(score):',
    '    """The letter for a score from 0 to 100: A from 90, B from 80, C from 70, else F."""',
    '    for floor, grade in ((90, "A"), (80, "B"), (70, "C")):',
    '        if score >= floor:',
    '            return grade',
    '    return "F"',
    '',
  ].join('\n'),
  'tests/test_grades.py': [
    'import unittest',
    '',
    'from grades import average, letter',
    '',
    '',
    'class AverageTest(unittest.TestCase):',
    '    def test_whole(self):',
    '        self.assertEqual(average([80, 90, 100]), 90)',
    '',
    '    def test_fraction(self):',
    '        self.assertEqual(average([90, 85]), 87.5)',
    '',
    '    def test_empty(self):',
    '        self.assertEqual(average([]), 0.0)',
    '',
    '',
    'class LetterTest(unittest.TestCase):',
    '    def test_bounds(self):',
    '        self.assertEqual([letter(s) for s in (100, 90, 89, 80, 70, 69)], ["A", "A", "B", "B", "C", "F"])',
    '',
    '',
    'if __name__ == "__main__":',
    '    unittest.main()',
    '',
  ].join('\n'),
  'README.md': '# grades\n\nA grade book. Run the tests with `python3 -m unittest discover`.\n',
};

function call(tool: string, args: object, thought?: string): string {
  return JSON.stringify(thought ? { thought, tool, args } : { tool, args });
}

/** The lesson's task and raw outputs. */
export const PYTHON_CHECKED: LessonScript = {
  id: 'python-checked',
  start: 'grades',
  task: 'average in grades.py drops the fraction: average([90, 85]) should be 87.5. Fix it so that `python3 -m unittest discover -s tests` passes.',
  outputs: [
    call('ws_test', {}, 'see which test fails first'),
    call('ws_read', { path: 'grades.py' }),
    // The fix re-typed with the colon after the condition forgotten.
    call(
      'ws_edit',
      {
        path: 'grades.py',
        old_str: '    if not scores:\n        return 0.0\n    return sum(scores) // len(scores)',
        new_str: '    if not scores\n        return 0.0\n    return sum(scores) / len(scores)',
      },
      'true division keeps the fraction',
    ),
    call('ws_edit', {
      path: 'grades.py',
      old_str: '    return sum(scores) // len(scores)',
      new_str: '    return sum(scores) / len(scores)',
    }),
    call('done', { summary: 'average divides with / now, so average([90, 85]) is 87.5; the unittest tests pass.' }),
  ],
};
