/**
 * Recorded runs for the scripted model: raw outputs as a small model writes them, replayed one
 * per step so a newcomer can press Run and watch the whole pipeline offline. They are recorded
 * turns, not a live model — every place that shows their output says so.
 *
 * The starter run fixes the starter template's bug (`truncate` returns one character too many)
 * the way a 1–3B model typically does: prose around a fenced call, an argument spelled the
 * way other tools spell it, a reply that explains the fix instead of calling a tool (answered
 * with the retry message), an edit whose old_str was re-typed with the wrong indentation
 * (caught by the match ladder's indentation rung) followed by a second call in the same
 * message (dropped: one call per turn), then the tests, then done.
 */

/** A recorded run of one bundled template's task. */
export interface RecordedRun {
  /** Stable id a run configuration names (`scripted:ID` becomes the model id). */
  readonly id: string;
  readonly title: string;
  /** One line for the model picker: what the recording shows. */
  readonly description: string;
  /** The bundled template the outputs were recorded against; other workspaces would not fit them. */
  readonly templateId: string;
  /** The raw outputs, one per step, exactly as the model wrote them. */
  readonly outputs: readonly string[];
}

const TRUNCATE_OLD = ['    if (text.length <= max) return text;', "    return text.slice(0, max) + '…';"].join('\n');
const TRUNCATE_NEW = ['    if (text.length <= max) return text;', "    return text.slice(0, max - 1) + '…';"].join(
  '\n',
);

/** The starter template's task, solved in seven steps. */
export const STARTER_RUN: RecordedRun = Object.freeze({
  id: 'starter-fix-truncate',
  title: 'Fix truncate in tiny-utils',
  description:
    'Seven recorded steps: run the tests, read the failing test and the source, a reply with no tool call, a drifted edit the ladder catches, the tests again, done.',
  templateId: 'starter',
  outputs: Object.freeze([
    // 1. Prose and a Markdown fence around the call: the parser looks through both.
    'I will run the test suite first to see which test fails.\n\n```json\n{"tool": "ws_test", "args": {}}\n```',
    // 2. A clean call with a thought.
    '{"thought": "The failing test is about truncate. Read the test to see what it expects.", "tool": "ws_read", "args": {"path": "test/strings.test.js"}}',
    // 3. `file_path` is how other agents spell `path`: accepted as an alias and noted.
    '{"thought": "truncate must return at most max characters including the ellipsis. Read the source.", "tool": "ws_read", "args": {"file_path": "src/strings.js"}}',
    // 4. Prose only: the model explains the fix instead of making it. The parser finds no call
    //    and the model is told exactly what shape to send.
    'The bug is in truncate: slice(0, max) keeps max characters and then the ellipsis is added, so the result is one character too long. I will change it to slice(0, max - 1).',
    // 5. old_str re-typed with four spaces where the file has two (the indentation rung), and a
    //    second call in the same message, which is dropped.
    JSON.stringify({
      thought: 'slice(0, max) keeps max characters and then adds the ellipsis, one too many. Keep max - 1.',
      tool: 'ws_edit',
      args: { path: 'src/strings.js', old_str: TRUNCATE_OLD, new_str: TRUNCATE_NEW },
    }) + '\n{"tool": "ws_test", "args": {}}',
    // 6. The tests again, now that the edit is in.
    '{"thought": "Run the tests to check the fix.", "tool": "ws_test", "args": {}}',
    // 7. The final JSON.
    '{"tool": "done", "args": {"summary": "truncate kept max characters and then added the ellipsis; it now keeps max - 1, so the result is at most max characters. The tests pass."}}',
  ]),
});

/** Every recorded run the playground offers. */
export const RECORDED_RUNS: readonly RecordedRun[] = Object.freeze([STARTER_RUN]);

/** The recorded run with this id, or undefined (ids come from run configurations, so a miss is data). */
export function recordedRunById(id: string): RecordedRun | undefined {
  return RECORDED_RUNS.find((r) => r.id === id);
}
