/**
 * Words for what the engine and the loop report: a label and a one-line "why this helps a
 * small model" for every note (the tool console and the run inspector share these tables),
 * and the status of a result. A note is explained by its kind and what it says: its detail
 * (or, where one detail covers several cases, its text) picks a specific explanation, and the
 * kind's own is the fallback. The kind table is keyed by NoteKind and LoopNoteKind, so a new
 * kind is a type error here until it is explained.
 */
import type { LoopNoteKind, NoteKind, ToolResult } from '../../worker/client.ts';

/** What explaining a note reads of it. */
export interface NoteLike {
  readonly kind: string;
  readonly text: string;
  readonly detail?: string;
}

export interface NoteExplanation {
  /** A short badge label. */
  readonly label: string;
  /** One line: why the engine does this for a small model. */
  readonly why: string;
  /** Badge colour family. */
  readonly tone: 'info' | 'warn' | 'stop';
}

export const NOTE_EXPLANATIONS: Readonly<Record<NoteKind | LoopNoteKind, NoteExplanation>> = {
  rung: {
    label: 'Ladder rung',
    tone: 'warn',
    why: 'The edit landed although old_str drifted; naming the rung tells the model how its copy differed, so it copies more exactly next time.',
  },
  outside: {
    label: 'Outside text',
    tone: 'warn',
    why: 'The text came from the web or an MCP server, not from the workspace; it is marked as data, so instructions written into a page do not pass for the task.',
  },
  'gutter-stripped': {
    label: 'Gutter stripped',
    tone: 'warn',
    why: "The model pasted ws_read's line-number gutter into its edit; it was removed and the edit applied, and the note discourages the habit.",
  },
  truncated: {
    label: 'Truncated',
    tone: 'warn',
    why: 'Head and tail are kept and the size is named, so one huge output cannot push the task out of a small context window.',
  },
  'read-window': {
    label: 'Read window',
    tone: 'info',
    why: 'Only part of the file was shown; the footer says which lines and how to page, so the model asks for more instead of guessing.',
  },
  'loop-guard': {
    label: 'Loop guard',
    tone: 'stop',
    why: 'The same call came again; a nudge replaces the identical answer, so the model changes approach instead of looping.',
  },
  stall: {
    label: 'Stall',
    tone: 'stop',
    why: 'No test progress for several steps; saying so breaks a cycle the model cannot see from inside one turn.',
  },
  'syntax-error': {
    label: 'Still broken',
    tone: 'warn',
    why: 'The file did not parse before and still does not; the parser error arrives in the same turn, so the next edit can fix it.',
  },
  'syntax-revert': {
    label: 'Edit reverted',
    tone: 'stop',
    why: 'The edit broke a file that parsed; it was undone and the model is told what broke, so the workspace never stays broken.',
  },
  refusal: {
    label: 'Refused',
    tone: 'stop',
    why: 'A rule stopped the call; the message names the rule and the tool to use instead, so the model can retry correctly.',
  },
  schema: {
    label: 'Bad arguments',
    tone: 'stop',
    why: "The arguments did not fit the tool's schema; the message names each wrong field and shows a correct call to copy.",
  },
  alias: {
    label: 'Alias accepted',
    tone: 'info',
    why: 'A common spelling of an argument was accepted under its canonical name, instead of failing a call that meant the right thing.',
  },
  coerced: {
    label: 'Type read',
    tone: 'info',
    why: 'A number or boolean sent in quotes ("limit": "3") was read as the type the tool expects, and the model is told to drop the quotes.',
  },
  'literal-fallback': {
    label: 'Literal search',
    tone: 'info',
    why: 'The pattern was not a valid regex, so it was searched as plain text and the result says so, instead of an error to decode.',
  },
  cap: {
    label: 'Hit cap',
    tone: 'warn',
    why: 'There were more hits than shown; announcing the cap makes the model narrow the search instead of assuming it saw everything.',
  },
  checkpoint: {
    label: 'Checkpoint',
    tone: 'info',
    why: 'What the call replaced was kept, so a destructive mistake by the model can still be undone.',
  },
  hint: {
    label: 'Hint',
    tone: 'info',
    why: 'A pointer to what to do next, so the model recovers instead of retrying blindly.',
  },
  shell: {
    label: 'Shell policy',
    tone: 'info',
    why: 'The command was checked before it ran; the note says what the policy decided, so the model learns which commands are allowed.',
  },
  // The loop's own notes (what happened around the tool call).
  'dropped-calls': {
    label: 'Extra calls cut',
    tone: 'warn',
    why: 'Only the first call of a message runs; the model is told which calls were dropped, so it sends one per turn after seeing each result.',
  },
  'parse-retry': {
    label: 'Retry asked',
    tone: 'stop',
    why: 'The reply held no usable call; the model is shown the exact shape to send, rather than a generic error it cannot act on.',
  },
  repair: {
    label: 'Call repaired',
    tone: 'info',
    why: 'The call was found inside prose, fences or slightly broken JSON, so a formatting slip does not cost the model a turn.',
  },
  approval: {
    label: 'Approval',
    tone: 'info',
    why: 'A person said yes or no to a call that changes files; a no comes back as a result, so the model can choose another way.',
  },
  elided: {
    label: 'Elided',
    tone: 'warn',
    why: 'Older results were replaced by a short marker to fit the context window; the marker says how to get them back.',
  },
  'observation-cut': {
    label: 'Cut to fit',
    tone: 'warn',
    why: 'The latest result alone was too big for the window; its head and tail were kept, so the model still sees the start and the end.',
  },
  'reply-cut': {
    label: 'Reply cut',
    tone: 'warn',
    why: 'The reply hit the token limit mid-call, so nothing ran; the model is told what was cut and to write a smaller change (ws_edit, ws_patch).',
  },
  'context-retry': {
    label: 'Prompt rebuilt',
    tone: 'warn',
    why: 'The model refused the prompt as too long for its context window; the step was rebuilt within a smaller budget, which the run keeps.',
  },
  'no-test-tool': {
    label: 'No test tool',
    tone: 'warn',
    why: 'done normally runs the tests one last time; without a test tool the record says so instead of claiming success.',
  },
  'final-tests': {
    label: 'Final tests',
    tone: 'info',
    why: "done ran the tests once more, so the run ends on a measured tally, not on the model's word.",
  },
  limit: {
    label: 'Run ended',
    tone: 'stop',
    why: 'The run stopped here (step limit, unusable replies, a model error or Stop); the reason is kept on the step that hit it.',
  },
};

/** An explanation for the notes of `kind` that `matches` picks; it overrides the kind's own. */
interface SpecificExplanation {
  readonly kind: NoteKind | LoopNoteKind;
  readonly matches: (note: NoteLike) => boolean;
  readonly explain: Partial<NoteExplanation> | ((note: NoteLike) => Partial<NoteExplanation>);
}

const detailIs =
  (...details: string[]) =>
  (n: NoteLike) =>
    n.detail !== undefined && details.includes(n.detail);

const DECLINED =
  'A person said no to this call; the no comes back as the result, so the model chooses another way instead of asking again.';
const UNASKED =
  "The call needs a person's yes, and the run had no one to ask (slm run has no approver), so it was not run; the result says so and what would let it run, so the model chooses another way.";
const UNAPPROVED =
  "The call needs a person's yes, and a replay approves nothing on anyone's behalf (a recorded yes is not one), so it was not run here.";

/** The parts a backend note is made of (joined by "; "), each with what it tells the reader. */
const BACKEND_PARTS: readonly (NoteExplanation & { readonly pattern: RegExp })[] = [
  {
    pattern: /without a process runner/,
    label: 'Did not run',
    tone: 'warn',
    why: 'This workspace has no process runner, so the command did not run: its exit code says nothing about the code or the tests.',
  },
  {
    pattern: /without an OS sandbox/,
    label: 'No sandbox',
    tone: 'stop',
    why: "The command ran directly on this machine, without an OS sandbox, with the user's access to files and network.",
  },
  {
    pattern: /^(killed after|cancelled)/,
    label: 'Killed',
    tone: 'stop',
    why: 'The command was stopped before it finished and its processes were killed.',
  },
  {
    pattern: /^WebContainer/,
    label: 'No WebContainer',
    tone: 'warn',
    why: 'WebContainer was chosen but could not be used, so the command ran in the in-memory workspace; the note says how to retry.',
  },
  {
    pattern: /^just-bash stopped the command/,
    label: 'Output cap',
    tone: 'warn',
    why: 'The output passed the live cap, so just-bash stopped the command before it finished.',
  },
  {
    pattern: /^ran in just-bash/,
    label: 'Where it ran',
    tone: 'info',
    why: "It ran in just-bash, an in-memory shell with a fixed set of commands and no network, so a missing command is that shell's limit.",
  },
  {
    pattern: /^node ran in the browser sandbox/,
    label: 'Where it ran',
    tone: 'info',
    why: 'node ran in a sandboxed browser worker with shims for node:test and a few modules, not Node itself.',
  },
  {
    pattern: /^node ran in Node/,
    label: 'Where it ran',
    tone: 'info',
    why: 'node ran in real Node on a temporary copy of the workspace, so what it wrote there is not kept.',
  },
  {
    pattern: /^ran in the bubblewrap sandbox/,
    label: 'Where it ran',
    tone: 'info',
    why: 'It ran in a bubblewrap sandbox on this machine, with only the workspace writable and no network.',
  },
  {
    pattern: /^the stages ran one after another/,
    label: 'Where it ran',
    tone: 'info',
    why: "The pipeline's stages ran in turn, each reading the previous one's whole output.",
  },
];

const SEVERITY: Readonly<Record<NoteExplanation['tone'], number>> = { info: 0, warn: 1, stop: 2 };

/** The parts of a note joined by "; ", leaving a "; " inside parentheses (a part's own aside) in its part. */
function topLevelParts(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (c === ';' && depth === 0 && text[i + 1] === ' ') {
      parts.push(text.slice(start, i));
      start = i + 2;
    }
  }
  return [...parts, text.slice(start)];
}

/** A backend note explained part by part: the gravest part gives the badge, every part it has its sentence. */
function explainBackend(text: string): NoteExplanation {
  const parts = topLevelParts(text).map((segment) => BACKEND_PARTS.find((p) => p.pattern.test(segment)));
  const known = [...new Set(parts.filter((p) => p !== undefined))];
  const gravest = known.reduce<NoteExplanation | undefined>(
    (a, p) => (a && SEVERITY[a.tone] >= SEVERITY[p.tone] ? a : p),
    undefined,
  );
  const whys = known.map((p) => p.why);
  if (parts.includes(undefined)) whys.push('The note says where the command ran, or why it could not run there.');
  return { label: gravest?.label ?? 'Where it ran', tone: gravest?.tone ?? 'info', why: whys.join(' ') };
}

/** First match wins. */
export const SPECIFIC_EXPLANATIONS: readonly SpecificExplanation[] = [
  {
    kind: 'hint',
    matches: (n) => n.detail?.startsWith('tally:') ?? false,
    explain: {
      label: 'Test tally',
      why: "The pass/fail counts read from the test runner's output; the stall detector and the Tests passing plot use them, so progress is measured.",
    },
  },
  {
    kind: 'hint',
    matches: detailIs('missing'),
    explain: {
      label: 'No such file',
      why: 'The path does not exist; the result names similar paths and how to find the right one, so the model corrects it instead of guessing.',
    },
  },
  {
    kind: 'hint',
    matches: detailIs('directory'),
    explain: {
      label: 'A directory',
      why: 'The path is a directory, not a file; the result lists what is in it, so the model picks a file there.',
    },
  },
  {
    kind: 'hint',
    matches: detailIs('binary'),
    explain: {
      label: 'Binary file',
      why: 'The file is binary, so its bytes are not shown (noise in a small window); the result says what it is instead.',
    },
  },
  {
    kind: 'hint',
    matches: detailIs('special'),
    explain: {
      label: 'Not a regular file',
      why: 'A command made a FIFO, socket or device there; the file tools leave it alone (reading a FIFO could wait forever) and say what it is, so the model uses ws_shell for it or names a regular file.',
    },
  },
  {
    kind: 'hint',
    matches: detailIs('closest'),
    explain: {
      label: 'Closest span',
      why: 'No span matched old_str; the most similar lines are shown with their numbers, so the model copies from the file, not from memory.',
    },
  },
  {
    kind: 'hint',
    matches: detailIs('replace-lines'),
    explain: {
      label: 'Try line edit',
      why: 'old_str missed this file again; ws_replace_lines edits by line numbers and needs no exact copy, so the model is pointed at it.',
    },
  },
  {
    kind: 'hint',
    matches: detailIs('offset-range'),
    explain: {
      label: 'Past the end',
      why: "The offset was past the file's last line; the result gives the file's length, so the model asks for a window that exists.",
    },
  },
  {
    kind: 'hint',
    matches: detailIs('unknown-skill'),
    explain: {
      label: 'Unknown skill',
      why: 'No skill has that name; the result lists the skills there are, so the model asks for one of them.',
    },
  },
  {
    kind: 'hint',
    matches: detailIs('no-test-command'),
    explain: {
      label: 'No test command',
      why: 'The project has no test command; the result says how to add one or run a test file directly, so the model is not stuck.',
    },
  },
  {
    kind: 'hint',
    matches: detailIs('tally-distrusted'),
    explain: {
      label: 'Tally not counted',
      tone: 'warn',
      why: 'The output reports only passes, but the command did not exit cleanly, so the tally is not counted as progress or a passing run.',
    },
  },
  {
    kind: 'hint',
    matches: detailIs('no-repo'),
    explain: {
      label: 'No git repo',
      why: 'There is no git repository here; the result says so, so the model reads the files instead of asking git again.',
    },
  },
  {
    kind: 'hint',
    matches: detailIs('deep-glob'),
    explain: {
      label: 'Glob widened',
      why: 'The pattern matched nothing at the top level, so it was widened to subfolders and the note names the pattern used.',
    },
  },
  {
    kind: 'alias',
    matches: (n) => /^\S+ accepted as \S+$/.test(n.text),
    explain: (n) => {
      const [alias, canonical] = n.text.split(' accepted as ');
      return {
        why: `${alias} is a common spelling of ${canonical}; it was accepted as ${canonical}, instead of failing a call that meant the right thing.`,
      };
    },
  },
  {
    kind: 'shell',
    matches: detailIs('approved'),
    explain: {
      label: 'Approved',
      why: "The policy lets this command run only with a person's yes (installs, commits); a person approved it in the UI, so it ran.",
    },
  },
  {
    kind: 'shell',
    matches: detailIs('pipeline'),
    explain: {
      label: 'Pipeline',
      why: 'Each stage of the pipeline ran as its own process, exactly as the policy checked it, joined by pipes; no shell ever read the text.',
    },
  },
  {
    kind: 'shell',
    matches: detailIs('timeout'),
    explain: {
      label: 'Timed out',
      tone: 'stop',
      why: 'The command ran past its time limit and its processes were killed, so a hung command cannot stall the run.',
    },
  },
  {
    kind: 'shell',
    matches: detailIs('timeout-capped'),
    explain: {
      label: 'Timeout capped',
      why: 'The timeout_ms asked for was above the cap, so it was lowered to the cap; one command cannot hold the run for long.',
    },
  },
  { kind: 'shell', matches: detailIs('backend'), explain: (n) => explainBackend(n.text) },
  {
    kind: 'shell',
    matches: detailIs('runtime'),
    explain: {
      label: 'Runtime',
      why: "The command's programs ran on this runtime, not the workspace's usual one (a python3 run names Python's version); the step records it, so a replay elsewhere can say where runtimes differ.",
    },
  },
  {
    kind: 'shell',
    matches: detailIs('xargs'),
    explain: {
      label: 'xargs',
      why: 'xargs did not run as a program: the runner split its input as xargs would and checked every command it would start before running any, so names in the input cannot smuggle in what the policy refuses.',
    },
  },
  {
    kind: 'refusal',
    matches: detailIs('option-file'),
    explain: {
      label: 'Option names a file',
      tone: 'warn',
      why: "An option's bare value is a file in the workspace, so the tool would load it as code; written as ./NAME it is asked about, so a person decides before project code runs that way.",
    },
  },
  { kind: 'refusal', matches: detailIs('approval-denied'), explain: { label: 'Declined', why: DECLINED } },
  { kind: 'refusal', matches: detailIs('approval-unapproved'), explain: { label: 'Not approved', why: UNAPPROVED } },
  { kind: 'refusal', matches: detailIs('approval-unasked'), explain: { label: 'Nobody to ask', why: UNASKED } },
  {
    kind: 'refusal',
    matches: detailIs('unknown-tool'),
    explain: {
      label: 'Unknown tool',
      why: 'No tool has that name; the result lists the tools there are, so the model calls one of them.',
    },
  },
  {
    kind: 'refusal',
    matches: detailIs('internal'),
    explain: {
      label: 'Engine error',
      why: 'The engine failed on this call: a bug in the engine, not a mistake of the model; the message says so, and the run can go on.',
    },
  },
  {
    kind: 'approval',
    matches: detailIs('approved'),
    explain: {
      label: 'Approved',
      why: 'A person was asked before this call ran and said yes; without that yes it would not have run.',
    },
  },
  { kind: 'approval', matches: detailIs('denied'), explain: { label: 'Declined', why: DECLINED } },
  { kind: 'approval', matches: detailIs('unapproved'), explain: { label: 'Not approved', why: UNAPPROVED } },
  { kind: 'approval', matches: detailIs('unasked'), explain: { label: 'Nobody to ask', why: UNASKED } },
  {
    kind: 'cap',
    matches: (n) => n.detail?.startsWith('syntax-') ?? false,
    explain: {
      label: 'Check skipped',
      why: "The file was past the syntax checker's bound, so it was not checked; the note says so instead of claiming the file parses.",
    },
  },
  {
    kind: 'cap',
    matches: (n) => n.text.startsWith('checklist capped'),
    explain: {
      label: 'List capped',
      why: 'The checklist keeps a fixed number of items; the rest were left out and the note says how many, so the plan stays short.',
    },
  },
  {
    kind: 'syntax-error',
    matches: (n) => n.text.startsWith('revert of '),
    explain: {
      label: 'Revert failed',
      tone: 'stop',
      why: 'The edit broke the file and undoing it failed, so the file stays broken; the error says why, so the next edit can repair it.',
    },
  },
  {
    kind: 'truncated',
    matches: (n) => n.text.includes('by the read ceiling'),
    explain: {
      label: 'Read ceiling',
      why: "ws_read's output has a size ceiling; the window was cut to fit it, and the footer says how to read the rest.",
    },
  },
];

/** The explanation of `note`: the specific one its detail or text picks, else its kind's; a kind this build does not know still gets a readable badge. */
export function explainNote(note: NoteLike): NoteExplanation {
  const general = (NOTE_EXPLANATIONS as Record<string, NoteExplanation>)[note.kind] ?? {
    label: note.kind,
    tone: 'info',
    why: 'Reported by the engine.',
  };
  const s = SPECIFIC_EXPLANATIONS.find((e) => e.kind === note.kind && e.matches(note));
  if (s) return { ...general, ...(typeof s.explain === 'function' ? s.explain(note) : s.explain) };
  return general;
}

export type ResultStatus = 'ok' | 'refused' | 'repeated' | 'failed';

/**
 * ok; refused (a rule said no); repeated (the loop guard answered a repeat of the same call with a
 * nudge instead of running it: nothing failed); or failed (anything else that did not succeed).
 */
export function resultStatus(result: ToolResult): ResultStatus {
  if (result.ok) return 'ok';
  if (result.notes.some((n) => n.kind === 'refusal')) return 'refused';
  return result.notes.some((n) => n.kind === 'loop-guard') ? 'repeated' : 'failed';
}
