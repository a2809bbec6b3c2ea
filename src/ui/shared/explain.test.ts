/**
 * Every note the engine and the loop emit is explained by what it says, not by its kind alone:
 * one row per note as it is emitted (kind, detail, text), with the label and the words its
 * explanation must have. A scan of the sources finds each kind and literal detail emitted, so a
 * new note without a row here fails.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { explainNote, NOTE_EXPLANATIONS, type NoteLike } from './explain.ts';

type Row = readonly [note: NoteLike, label: string, says: RegExp];

/** The memory workspace's note when it has no process runner (as src/workspace/memory writes it). */
const NO_RUNNER_NOTE = 'this memory workspace was created without a process runner, so no command can run in it';

const ROWS: readonly Row[] = [
  [{ kind: 'reply-cut', text: 'the reply was cut at the token limit' }, 'Reply cut', /token limit/],
  [{ kind: 'context-retry', text: 'rebuilt within 3,072 tokens', detail: '3072' }, 'Prompt rebuilt', /context window/],
  [{ kind: 'outside', text: 'text from https://example.org', detail: 'web' }, 'Outside text', /web or an MCP server/],
  [{ kind: 'outside', text: 'text from the MCP server docs', detail: 'mcp' }, 'Outside text', /web or an MCP server/],
  [
    { kind: 'refusal', text: 'timeout ran out before the command started', detail: 'timeout' },
    'Refused',
    /rule stopped/,
  ],
  [{ kind: 'hint', text: 'test tally: 9 passed, 0 failed', detail: 'tally:9/0' }, 'Test tally', /pass\/fail counts/],
  [{ kind: 'hint', text: 'src/x.js does not exist', detail: 'missing' }, 'No such file', /does not exist/],
  [{ kind: 'hint', text: 'src is a directory', detail: 'directory' }, 'A directory', /is a directory/],
  [{ kind: 'hint', text: 'logo.png is binary', detail: 'binary' }, 'Binary file', /binary/],
  [
    { kind: 'hint', text: 'p is a FIFO (named pipe)', detail: 'special' },
    'Not a regular file',
    /FIFO, socket or device/,
  ],
  [{ kind: 'hint', text: 'closest span: lines 3–5', detail: 'closest' }, 'Closest span', /most similar lines/],
  [
    { kind: 'hint', text: 'src/a.js hunk 1: closest span lines 3–5', detail: 'closest' },
    'Closest span',
    /most similar lines/,
  ],
  [
    { kind: 'hint', text: 'miss #3 on src/a.js: pointed at ws_replace_lines', detail: 'replace-lines' },
    'Try line edit',
    /ws_replace_lines/,
  ],
  [{ kind: 'hint', text: 'offset 90 > 12 lines', detail: 'offset-range' }, 'Past the end', /past the file's last line/],
  [{ kind: 'hint', text: 'unknown skill tdd', detail: 'unknown-skill' }, 'Unknown skill', /No skill has that name/],
  [{ kind: 'hint', text: 'no test command found', detail: 'no-test-command' }, 'No test command', /no test command/],
  [
    {
      kind: 'hint',
      text: 'tally not counted: the output reports 3 passed and none failed, but the command exited with code 1, so this is not counted as a passing run',
      detail: 'tally-distrusted',
    },
    'Tally not counted',
    /not counted as progress/,
  ],
  [{ kind: 'hint', text: 'no git repository', detail: 'no-repo' }, 'No git repo', /no git repository/],
  [{ kind: 'hint', text: 'widened *.js to **/*.js', detail: 'deep-glob' }, 'Glob widened', /widened to subfolders/],
  [
    { kind: 'alias', text: 'file_path accepted as path', detail: 'file_path' },
    'Alias accepted',
    /^file_path is a common spelling of path; it was accepted as path/,
  ],
  [
    { kind: 'alias', text: 'old_string accepted as old_str', detail: 'old_string' },
    'Alias accepted',
    /^old_string is a common spelling of old_str;/,
  ],
  [
    {
      kind: 'coerced',
      text: 'limit: the string "3" was read as the integer 3; send it without quotes',
      detail: 'limit',
    },
    'Type read',
    /sent in quotes/,
  ],
  [
    { kind: 'shell', text: 'allowed (tier free): "npm test" runs the project\'s tests.', detail: 'allow' },
    'Shell policy',
    /what the policy decided/,
  ],
  [
    { kind: 'shell', text: 'needs approval (tier gated): npm install adds packages.', detail: 'gated' },
    'Shell policy',
    /what the policy decided/,
  ],
  [
    { kind: 'shell', text: 'refused (tier never): rm deletes files.', detail: 'refuse' },
    'Shell policy',
    /what the policy decided/,
  ],
  [
    { kind: 'shell', text: 'test script: allowed (tier free): node --test.', detail: 'allow' },
    'Shell policy',
    /what the policy decided/,
  ],
  [
    { kind: 'shell', text: 'approved by a person in the UI', detail: 'approved' },
    'Approved',
    /a person approved it in the UI/,
  ],
  [
    {
      kind: 'shell',
      text: 'ran as 2 processes joined by pipes, each exactly as checked (no shell)',
      detail: 'pipeline',
    },
    'Pipeline',
    /joined by pipes/,
  ],
  [
    { kind: 'shell', text: 'timed out after 30000 ms; process tree killed', detail: 'timeout' },
    'Timed out',
    /past its time limit/,
  ],
  [
    { kind: 'shell', text: 'timeout_ms lowered to the cap 60000', detail: 'timeout-capped' },
    'Timeout capped',
    /lowered to the cap/,
  ],
  [
    { kind: 'shell', text: 'ran on Python 3.14.2 (Pyodide 314.0.8)', detail: 'runtime' },
    'Runtime',
    /python3 run names Python's version/,
  ],
  [
    { kind: 'shell', text: NO_RUNNER_NOTE, detail: 'backend' },
    'Did not run',
    /no process runner, so the command did not run/,
  ],
  [
    { kind: 'shell', text: 'ran in just-bash (the in-memory shell; about 80 commands, no network)', detail: 'backend' },
    'Where it ran',
    /^It ran in just-bash, an in-memory shell/,
  ],
  [
    {
      kind: 'shell',
      text: 'ran in just-bash (the in-memory shell; about 80 commands, no network); node ran in the browser sandbox (a worker in an opaque-origin frame with no network; not Node itself)',
      detail: 'backend',
    },
    'Where it ran',
    /^It ran in just-bash, an in-memory shell[^.]*\. node ran in a sandboxed browser worker[^.]*\.$/,
  ],
  [
    {
      kind: 'shell',
      text: 'ran in just-bash (the in-memory shell; about 80 commands, no network); just-bash stopped the command when its output passed 16777216 bytes',
      detail: 'backend',
    },
    'Output cap',
    /passed the live cap/,
  ],
  [
    {
      kind: 'shell',
      text: 'node ran in Node v22.0.0 on this machine, over a temporary copy of the workspace (files it writes are not kept)',
      detail: 'backend',
    },
    'Where it ran',
    /real Node on a temporary copy/,
  ],
  [
    {
      kind: 'shell',
      text: 'ran in the bubblewrap sandbox as you: only the workspace writable, no network',
      detail: 'backend',
    },
    'Where it ran',
    /bubblewrap sandbox/,
  ],
  [
    {
      kind: 'shell',
      text: "commands ran without an OS sandbox (--no-sandbox): the model's commands run directly on this machine",
      detail: 'backend',
    },
    'No sandbox',
    /without an OS sandbox/,
  ],
  [
    {
      kind: 'shell',
      text: 'WebContainer was chosen, but the page has not attached it to the engine; this run uses the in-memory workspace. Reload the page to try WebContainer again.',
      detail: 'backend',
    },
    'No WebContainer',
    /could not be used/,
  ],
  [
    { kind: 'shell', text: 'killed after 30000 ms (1 process group)', detail: 'backend' },
    'Killed',
    /stopped before it finished/,
  ],
  [
    { kind: 'refusal', text: 'Edit refused — .slmcode/ is the harness directory', detail: 'harness-dir' },
    'Refused',
    /A rule stopped the call/,
  ],
  [
    { kind: 'refusal', text: 'ws_shell declined by a person', detail: 'approval-denied' },
    'Declined',
    /A person said no/,
  ],
  [
    { kind: 'refusal', text: 'vitest --runner x: x is a workspace file', detail: 'option-file' },
    'Option names a file',
    /load it as code/,
  ],
  [
    { kind: 'shell', text: 'xargs ran 2 commands, each checked first', detail: 'xargs' },
    'xargs',
    /checked every command it would start/,
  ],
  [
    { kind: 'refusal', text: 'ws_shell not run: not approved here (replayed)', detail: 'approval-unapproved' },
    'Not approved',
    /a replay approves nothing/,
  ],
  [
    { kind: 'refusal', text: 'mcp_call not run: no one was there to approve it', detail: 'approval-unasked' },
    'Nobody to ask',
    /the run had no one to ask/,
  ],
  [
    { kind: 'approval', text: 'mcp_call not run: the run has no approver', detail: 'unasked' },
    'Nobody to ask',
    /slm run has no approver/,
  ],
  [
    { kind: 'refusal', text: 'unknown tool ws_frobnicate', detail: 'unknown-tool' },
    'Unknown tool',
    /No tool has that name/,
  ],
  [{ kind: 'refusal', text: 'internal error', detail: 'internal' }, 'Engine error', /a bug in the engine/],
  [{ kind: 'approval', text: 'ws_shell approved by a person', detail: 'approved' }, 'Approved', /said yes/],
  [{ kind: 'approval', text: 'ws_write denied by a person', detail: 'denied' }, 'Declined', /A person said no/],
  [
    { kind: 'approval', text: 'ws_shell replayed without running: nobody here approved it', detail: 'unapproved' },
    'Not approved',
    /a replay approves nothing/,
  ],
  [{ kind: 'cap', text: 'grep cap 50 reached (120 hits)', detail: '120' }, 'Hit cap', /more hits than shown/],
  [{ kind: 'cap', text: 'glob cap 200 reached (340 matches)', detail: '340' }, 'Hit cap', /more hits than shown/],
  [
    { kind: 'cap', text: 'checklist capped at 12 of 15 items', detail: '15' },
    'List capped',
    /checklist keeps a fixed number/,
  ],
  [
    { kind: 'cap', text: 'syntax check of big.js skipped: too large', detail: 'syntax-bytes' },
    'Check skipped',
    /not checked/,
  ],
  [
    { kind: 'syntax-error', text: 'src/a.js does not parse (acorn Unexpected token)', detail: 'acorn' },
    'Still broken',
    /did not parse before/,
  ],
  [
    { kind: 'syntax-error', text: 'revert of src/a.js failed: disk full', detail: 'acorn' },
    'Revert failed',
    /undoing it failed/,
  ],
  [
    { kind: 'syntax-revert', text: 'reverted: src/a.js stopped parsing (acorn Unexpected token)', detail: 'acorn' },
    'Edit reverted',
    /it was undone/,
  ],
  [
    { kind: 'truncated', text: 'output cut to 4000 of 131109 characters', detail: '131109' },
    'Truncated',
    /Head and tail are kept/,
  ],
  [
    { kind: 'truncated', text: 'result cut to 8000 of 9000 characters', detail: '9000' },
    'Truncated',
    /Head and tail are kept/,
  ],
  [{ kind: 'truncated', text: 'line 4 cut by the read ceiling', detail: '8000' }, 'Read ceiling', /size ceiling/],
  [
    { kind: 'truncated', text: 'read window shrunk to 40 lines by the read ceiling', detail: '8000' },
    'Read ceiling',
    /size ceiling/,
  ],
  [{ kind: 'read-window', text: 'lines 1-100 of 300', detail: '1-100/300' }, 'Read window', /Only part of the file/],
  [{ kind: 'rung', text: 'matched by the indent rung', detail: 'indent' }, 'Ladder rung', /old_str drifted/],
  [
    { kind: 'gutter-stripped', text: 'stripped the read gutter from old_str', detail: 'gutter' },
    'Gutter stripped',
    /line-number gutter/,
  ],
  [
    { kind: 'checkpoint', text: 'checkpoint #2 keeps src/a.js as it was before ws_edit', detail: '2' },
    'Checkpoint',
    /can still be undone/,
  ],
  [{ kind: 'loop-guard', text: 'identical ws_read call #3', detail: '3' }, 'Loop guard', /same call came again/],
  [
    { kind: 'literal-fallback', text: 'searched ( literally', detail: 'unbalanced' },
    'Literal search',
    /searched as plain text/,
  ],
  [{ kind: 'schema', text: 'path' }, 'Bad arguments', /did not fit the tool's schema/],
  [{ kind: 'stall', text: 'no test progress; nudge appended to the observation' }, 'Stall', /No test progress/],
  [
    { kind: 'dropped-calls', text: 'the first call ran; 1 further call was dropped (ws_read)', detail: 'ws_read' },
    'Extra calls cut',
    /Only the first call/,
  ],
  [
    { kind: 'parse-retry', text: 'no usable call (no-json); told the model how to retry', detail: 'no-json' },
    'Retry asked',
    /no usable call/,
  ],
  [{ kind: 'repair', text: 'call found after: fence', detail: 'fence' }, 'Call repaired', /found inside prose/],
  [
    { kind: 'no-test-tool', text: 'no ws_test tool was registered; the run ended without a final test run' },
    'No test tool',
    /without a test tool/,
  ],
  [
    { kind: 'final-tests', text: 'final test run: 8 passed, 1 failed', detail: '8 passed, 1 failed' },
    'Final tests',
    /measured tally/,
  ],
  [
    { kind: 'limit', text: 'reached the step limit (30) without the final done JSON', detail: 'max-steps' },
    'Run ended',
    /The run stopped here/,
  ],
];

describe('each note is explained by what it says', () => {
  it.each(ROWS.map(([note, label, says]) => [note.text, note, label, says] as const))(
    '%s',
    (_text, note, label, says) => {
      const e = explainNote(note);
      expect(e.label).toBe(label);
      expect(e.why).toMatch(says);
    },
  );

  it("the issue's mismatches are gone", () => {
    expect(explainNote(ROWS[0]![0]).why).not.toMatch(/pointer to the next step/i);
    expect(
      explainNote({ kind: 'refusal', text: 'ws_shell declined by a person', detail: 'approval-denied' }).why,
    ).not.toMatch(/A rule stopped/);
    for (const text of [
      'ran in just-bash (the in-memory shell; about 80 commands, no network)',
      'approved by a person in the UI',
      NO_RUNNER_NOTE,
    ]) {
      expect(
        explainNote({ kind: 'shell', text, detail: text === 'approved by a person in the UI' ? 'approved' : 'backend' })
          .why,
      ).not.toMatch(/what the policy decided/);
    }
    expect(explainNote({ kind: 'alias', text: 'file_path accepted as path', detail: 'file_path' }).why).not.toMatch(
      /old_string/,
    );
  });
});

/** Each `kind: '…'` in the sources that emit notes, with the literal detail beside it (if any). */
function emitted(): { kind: string; detail: string | null; file: string }[] {
  const out: { kind: string; detail: string | null; file: string }[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (path.endsWith('.ts') && !path.includes('.test.')) {
        for (const line of readFileSync(path, 'utf8').split('\n')) {
          for (const segment of line.split(/(?=kind: ')/).slice(1)) {
            const kind = /^kind: '([^']+)'/.exec(segment)![1]!;
            if (kind in NOTE_EXPLANATIONS)
              out.push({ kind, detail: /detail: '([^']+)'/.exec(segment)?.[1] ?? null, file: path });
          }
        }
      }
    }
  };
  for (const dir of ['src/engine', 'src/agent']) walk(dir);
  return out;
}

describe('the table covers every note the engine and the loop emit', () => {
  const found = emitted();

  it('finds the emitters', () => {
    expect(found.length).toBeGreaterThan(40);
  });

  it.each(found.map((f) => [`${f.kind}${f.detail ? `:${f.detail}` : ''} (${f.file})`, f] as const))(
    '%s has a row',
    (_name, f) => {
      expect(ROWS.some(([note]) => note.kind === f.kind && (f.detail === null || note.detail === f.detail))).toBe(true);
    },
  );
});
