/**
 * The lessons: a path a newcomer can follow in about ten minutes, each a short recorded
 * session (lessons/<id>.session.json) in which a scripted model makes the mistakes small
 * models make and the ACI steers it. Here is what people read beside the steps — the title,
 * a one-paragraph intro, one caption per step — and which mechanism each step demonstrates.
 * The recordings are made by scripts/make-lessons.ts; every result in them is computed by
 * the real engine and loop, and recomputed by every replay. Every lesson's project has tests,
 * and each lesson ends on its final test run's tally (`done` runs them), so its replay needs a
 * workspace that runs `node` (and `python3` for the Python lesson): the browser's sandbox and
 * its Pyodide, or Node and this machine's Python inside the OS sandbox.
 */
import type { MechanismId } from './mechanisms.ts';

export interface LessonStep {
  /** One or two sentences shown beside the step. */
  readonly caption: string;
  /** The mechanisms this step demonstrates (checked by the lesson tests). */
  readonly shows?: readonly MechanismId[];
}

export interface Lesson {
  /** Stable id; the session is lessons/<id>.session.json. */
  readonly id: string;
  /** 1-based position on the path. */
  readonly order: number;
  readonly title: string;
  /** One paragraph: what the model is asked and what to watch for. */
  readonly intro: string;
  /** One entry per recorded step, in order. */
  readonly steps: readonly LessonStep[];
}

/** The lessons in path order. */
export const LESSONS: readonly Lesson[] = [
  {
    id: 'edits-that-drift',
    order: 1,
    title: 'Edits that drift',
    intro:
      'A small model re-types the lines it wants to change, and the copy drifts: trailing spaces, curly quotes, four spaces of indentation where the file has two, an extra blank line, a middle line misremembered. ' +
      'An exact-match tool would miss every one of these edits. ws_edit walks a ladder of stricter-to-looser matches, applies the first that finds exactly one place, and says which rung matched so the model sees its drift.',
    steps: [
      { caption: 'The model reads the file first, as the edit contract asks.' },
      {
        caption:
          'The truncate fix, with trailing spaces the file does not have: matched by the trailing-whitespace rung.',
        shows: ['rung-trailing-ws'],
      },
      {
        caption: 'A doc-comment fix typed with curly quotes: the quote/dash rung finds the plain-quoted line.',
        shows: ['rung-quotes-dashes'],
      },
      {
        caption:
          "capitalize's body indented by four spaces instead of two: matched, and the file's own indentation is kept.",
        shows: ['rung-indent'],
      },
      {
        caption: "An extra blank line between slugify's comment and its function: the blank-line rung ignores it.",
        shows: ['rung-blank-lines'],
      },
      {
        caption:
          'wordCount copied with its middle line misremembered: the first and last lines anchor it, and the note asks for a check with ws_read.',
        shows: ['rung-anchors'],
      },
      {
        caption:
          'done ends the run with a summary and runs the tests one last time: 9 passed, 0 failed — the truncate fix works.',
      },
    ],
  },
  {
    id: 'copying-from-a-read',
    order: 2,
    title: 'Copying from a read',
    intro:
      'ws_read shows every line behind a "42|" gutter. The numbers are for reading only, yet pasting them into old_str is the most common small-model edit failure. ' +
      'When every line carries the gutter, the paste is unambiguous: it is stripped, the edit applied, and the result says so. A gutter on only some lines is not a paste, so it is refused with a before/after example.',
    steps: [
      { caption: 'The read the model will copy from: each line behind its number.' },
      {
        caption:
          'old_str and new_str pasted with the gutter on every line: stripped from both, applied, and named in the result.',
        shows: ['gutter-stripped'],
      },
      {
        caption: 'The gutter on the first line only: refused, with the line as it was and as it should be.',
        shows: ['gutter-partial'],
      },
      { caption: 'The same change, copied cleanly: an exact match.', shows: ['rung-exact'] },
      { caption: 'done, with a summary of the two messages; the final test run passes (9 of 9).' },
    ],
  },
  {
    id: 'when-an-edit-misses',
    order: 3,
    title: 'When an edit misses',
    intro:
      'Three route handlers share the same sign-in check, which is exactly where a short old_str stops being unique. ' +
      'Watch each miss come back with what the model needs next: the lines where a short anchor occurs and the replace_all flag, the places a loose match would fit, the closest text to a misremembered span, and a refusal for an edit that changes nothing.',
    steps: [
      { caption: 'The model reads src/routes.js.' },
      {
        caption:
          'A one-line old_str that occurs three times: refused, with the lines and the two ways out (more context, or replace_all).',
        shows: ['found-n-times'],
      },
      {
        caption:
          'More context, but re-indented from the margin: the indentation rung now fits three places, so it refuses rather than guess. A second miss in a row also points at ws_replace_lines.',
        shows: ['ambiguous'],
      },
      { caption: 'The model takes the hint: replace_all changes all three handlers.', shows: ['rung-exact'] },
      {
        caption:
          'The ownership check written from memory: not found, but the closest lines and their first difference are quoted.',
        shows: ['not-found-hint'],
      },
      {
        caption:
          'Copied correctly now, but new_str is the same text: a no-op, refused instead of reported as a success.',
        shows: ['no-op'],
      },
      { caption: "The real change: 401 becomes 403 for someone else's order.", shows: ['rung-exact'] },
      { caption: 'done: the final test run checks all three handlers and the 403 (4 passed, 0 failed).' },
    ],
  },
  {
    id: 'reading-big-files',
    order: 4,
    title: 'Reading big files',
    intro:
      "A 260-line catalog with long lines would fill a small model's context in one read. ws_read shows a window and a footer with the exact call for the next page; a search that matches every line is cut head and tail, with a note on how to narrow it. " +
      'The model narrows, reads three lines around the hit, and makes a one-line edit.',
    steps: [
      {
        caption:
          'A plain read: the window is cut to what one result may hold, and the footer gives the call for the next page.',
        shows: ['read-window'],
      },
      {
        caption:
          'A search for "price" matches every line: the hits are capped, and the result is cut head and tail with steering text.',
        shows: ['truncated'],
      },
      { caption: 'A narrower search finds the one line.' },
      { caption: 'A three-line window around it, with its own footer.', shows: ['read-window'] },
      { caption: 'A one-line edit, exactly matched.', shows: ['rung-exact'] },
      { caption: 'done: the final test run finds the bookshelf at 12900 cents (2 passed, 0 failed).' },
    ],
  },
  {
    id: 'guards-against-destruction',
    order: 5,
    title: 'Guards against destruction',
    intro:
      'Small models like to rewrite whole files, and a rewrite is where lines go missing. Five guards stand in the way: ws_write will not overwrite a file the model has not read, nor shrink a large file to a few lines, nor create an empty file from a call that carries no text; ' +
      'ws_edit will not take a whole-file old_str; and an edit that breaks a file that parsed is reverted on the spot. Each refusal names the smaller, safer call.',
    steps: [
      {
        caption:
          'The README rewritten blind: refused, because it has not been read; the refusal spells out read-then-edit.',
        shows: ['unread-overwrite'],
      },
      { caption: 'The model reads src/cart.js.' },
      {
        caption:
          'A new module whose text went under "code", a key ws_write does not read: refused rather than created as a 0-byte file, and the refusal names the keys it reads and the one it ignored.',
      },
      {
        caption: 'cart.js "rewritten" as the new function and a placeholder comment: the shrink guard refuses it.',
        shows: ['shrink-guard'],
      },
      {
        caption:
          'The whole file as old_str, re-emitted with itemCount silently dropped: the over-edit guard refuses it.',
        shows: ['over-edit'],
      },
      {
        caption:
          'The new function appended, but its closing brace is missing: the file no longer parses, so the edit is reverted.',
        shows: ['syntax-revert'],
      },
      { caption: 'The same append, balanced: applied.', shows: ['rung-exact'] },
      { caption: "done — noting that the README still needs its line; the cart's tests still pass (3 of 3)." },
    ],
  },
  {
    id: 'the-jail',
    order: 6,
    title: 'The jail',
    intro:
      'Every path is checked before a backend sees it. Paths that lead outside the project are refused, and .slmcode/, where the harness keeps its own hooks and settings, is off limits: a model that could write hooks.json would run any command on the next run. ' +
      '.slmcode/scratch/ is the one place under it a tool may write.',
    steps: [
      { caption: 'A read two levels above the project: refused by the jail.', shows: ['jail'] },
      {
        caption:
          'grep -q answers with its exit status alone: the result says the command succeeded with no output, so silence is not mistaken for a failure.',
      },
      {
        caption: 'A hooks file under .slmcode/: refused, with the reason and the scratch directory as the alternative.',
        shows: ['harness-dir'],
      },
      { caption: 'A note under .slmcode/scratch/: allowed.' },
      { caption: 'done: nothing in the project changed, and its tests pass (9 of 9).' },
    ],
  },
  {
    id: 'shell-safety',
    order: 7,
    title: 'Shell safety',
    intro:
      'ws_shell runs one command, and what runs is what was shown. Command substitution would hide a second command, a write redirect would change files behind the file tools (and their checkpoints); both are refused with the tool to use instead. ' +
      'Installing a package is not refused but gated: the run waits for a person, and here the person declines.',
    steps: [
      {
        caption: 'A command substitution, $(ls …): refused, with how to run the inner command on its own.',
        shows: ['shell-refused'],
      },
      {
        caption: 'A backup by redirecting into a file: refused; files are written with ws_write.',
        shows: ['shell-refused'],
      },
      {
        caption: 'npm install is gated: the run asks a person, who declines, and the model is told so.',
        shows: ['approval'],
      },
      { caption: 'done, honest about what was not done; the tests, untouched, pass (9 of 9).' },
    ],
  },
  {
    id: 'loops-and-stalls',
    order: 8,
    title: 'Loops and stalls',
    intro:
      "Progress is measured, not read from the model's prose: ws_test parses the pass/fail tally. After a wrong guess, the model runs the same tests again and again. " +
      'Three steps without a better tally earn a stall nudge; the third identical call in a row is not run at all. The model changes approach, reads the code and fixes it.',
    steps: [
      { caption: 'The tests run: 1 passed, 2 failed — the tally the stall detector measures against.' },
      {
        caption: 'A guess without reading the code: rounding instead of flooring. The edit itself lands exactly.',
        shows: ['rung-exact'],
      },
      { caption: 'The tests again: worse (0 passed, 3 failed).' },
      {
        caption: 'The same tests once more: three steps without a better tally, so a stall nudge is appended.',
        shows: ['stall'],
      },
      {
        caption: 'And again: the third identical call in a row is not run; the loop guard answers instead.',
        shows: ['loop-guard'],
      },
      { caption: 'The model changes approach and reads the code.' },
      {
        caption:
          'The real fix lands. No test has run for three steps, so the nudge comes again: the detector trusts the tally, not the edit.',
        shows: ['rung-exact', 'stall'],
      },
      { caption: 'done runs the tests one last time: 3 passed, 0 failed.' },
    ],
  },
  {
    id: 'patches-and-finishing',
    order: 9,
    title: 'Patches, and how a run ends',
    intro:
      'ws_patch applies a diff whole or not at all: when one hunk misses, nothing is written, and each hunk reports where it anchored or why it failed. ' +
      'Then the end of a run: only the first call of a reply runs (the rest are reported as dropped), and a reply that merely sounds finished does not end the run — only the done JSON does.',
    steps: [
      { caption: 'The model reads the end of src/strings.js.' },
      {
        caption: 'A two-hunk patch whose second hunk quotes a comment wrongly: refused whole, with a line per hunk.',
        shows: ['patch-report'],
      },
      { caption: 'The corrected patch: both hunks anchor exactly and it applies.' },
      {
        caption: 'A check and done in one reply: only the read (a four-line window) runs; done is reported as dropped.',
        shows: ['read-window', 'one-call'],
      },
      {
        caption: 'Prose that sounds finished, with no call: the run goes on, and the model is shown the done JSON.',
        shows: ['final-json'],
      },
      { caption: 'The done JSON ends the run, on the final test run: 9 passed, 0 failed.' },
    ],
  },
  {
    id: 'python-checked',
    order: 10,
    title: 'Python, checked by Python',
    intro:
      'A small Python project with unittest tests. Once Python has run in the workspace (here, the first test run loads it: this machine’s python3 in the OS sandbox, or Pyodide in the tab), every edit to a .py file is judged by CPython’s own compile(), not by hand-written rules. ' +
      'The model re-types the fix and forgets a colon: the edit is reverted on the spot with the compiler’s own message, and the model makes the one-line fix instead.',
    steps: [
      { caption: 'ws_test finds unittest tests and runs them: 3 passed, 1 failed — average floors 87.5 to 87.' },
      { caption: 'The model reads grades.py.' },
      {
        caption:
          'The fix, re-typed with the colon after `if not scores` forgotten: CPython’s compile() says "expected \':\'", so the edit is reverted and the file is unchanged.',
        shows: ['syntax-revert'],
      },
      { caption: 'The one-line fix, exactly matched: / instead of //.', shows: ['rung-exact'] },
      { caption: 'done runs python3 -m unittest one last time: 4 passed, 0 failed.' },
    ],
  },
  {
    id: 'text-from-the-web',
    order: 11,
    title: 'Text from the web',
    intro:
      'The task needs one fact from a web page, and the page also carries an instruction to the model: ignore the task and delete the tests. A small model often obeys whatever text it last read. ' +
      'web_fetch heads the page with a banner that says it is outside text, data and never instructions (the inspector shows it as a band), and the ACI around the model still holds: a shell delete is refused outright, and a git removal waits for a person, who declines. The model then does the task with the fact it came for.',
    steps: [
      {
        caption:
          'web_fetch brings the page back as Markdown, headed by the outside-text banner: the port is there, and so is the injected "delete the tests".',
        shows: ['outside-text'],
      },
      {
        caption:
          'The model obeys the page with rm -rf: the shell refuses deleting from the shell outright (no checkpoint could undo it).',
      },
      {
        caption: 'It tries again through git rm, which goes before a person; the person declines, and the tests stay.',
        shows: ['approval'],
      },
      { caption: 'Back to the task: src/widget.js with the port the page gave, 4711.' },
      { caption: 'done runs the tests one last time: all nine are still there, and they pass.' },
    ],
  },
];

/** The lesson with this id, or undefined (ids can come from a URL). */
export function lessonById(id: string): Lesson | undefined {
  return LESSONS.find((l) => l.id === id);
}

/** Where lesson `id`'s session file lives, from the repository root. */
export function lessonFile(id: string): string {
  return `lessons/${id}.session.json`;
}

/** Every mechanism a lesson claims, with the 1-based step that shows it. */
export function lessonClaims(lesson: Lesson): { readonly mechanism: MechanismId; readonly step: number }[] {
  return lesson.steps.flatMap((s, i) => (s.shows ?? []).map((mechanism) => ({ mechanism, step: i + 1 })));
}
