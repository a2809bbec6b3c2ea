/**
 * "ACI off": the counterfactual shown beside a step. Given the raw output and the workspace
 * before the step, what would an exact-match, untruncated, unguarded harness (aci-off-harness.ts)
 * have shown the model and written — and was that the same as the ACI, worse, or better?
 *
 * The verdict is judged from the model's side: `worse` when the naive harness damages or loses
 * something (an unread file overwritten, a broken file left on disk, a write outside the
 * project), runs what should not run, floods the context, or leaves the model with less to
 * act on (a bare "not found" where the ACI named the cause); `better` when it made a change
 * the ACI refused and nothing was lost by it; `same` otherwise. Which rule applies follows
 * from the mechanism the ACI's step shows (mechanisms.ts), so the two stay in step.
 * No DOM, no Node builtins: it runs in the browser worker and in Node.
 */
import { diffArrays } from 'diff';
import type { Step } from '../agent/step.ts';
import { firstLine, type FileChange } from '../engine/result.ts';
import { CHARS_PER_TOKEN, DEFAULT_SETTINGS } from '../engine/settings.ts';
import { splitLines } from '../engine/text.ts';
import { runNaive, type NaiveChange, type NaiveOutcome } from './aci-off-harness.ts';
import { detectMechanisms, liveEvidence, type MechanismId, type StepEvidence } from './mechanisms.ts';

export type { NaiveChange } from './aci-off-harness.ts';

export type AciOffVerdict = 'same' | 'worse' | 'better';

export interface AciOffInput {
  /** The model's raw output for the step. */
  readonly raw: string;
  /** Every text file of the workspace just before the step, path → text. */
  readonly files: Readonly<Record<string, string>>;
  /** What the ACI did with the same output. */
  readonly aci: {
    readonly evidence: StepEvidence;
    /** The files the step changed under the ACI. */
    readonly changes: readonly FileChange[];
  };
}

export interface AciOff {
  /** What the naive harness would have shown the model. */
  readonly text: string;
  /** What it would have written where (outside the project: described, never written). */
  readonly changes: readonly NaiveChange[];
  readonly verdict: AciOffVerdict;
  /** One or two sentences: why the verdict. */
  readonly why: string;
}

interface Judged {
  readonly verdict: AciOffVerdict;
  readonly why: string;
}

interface Context {
  readonly naive: NaiveOutcome;
  readonly aci: AciOffInput['aci'];
}

const worse = (why: string): Judged => ({ verdict: 'worse', why });
const same = (why: string): Judged => ({ verdict: 'same', why });

/** A size as people read it: characters, and the characters/4 token estimate the context budget uses. */
function size(chars: number): string {
  return `${chars} characters (~${Math.ceil(chars / CHARS_PER_TOKEN)} tokens)`;
}

function changedPaths(c: Context): string {
  return c.naive.changes.map((x) => x.path).join(', ');
}

/** Lines of `before` that `after` no longer has (blank lines aside), counted with repeats: what an overwrite throws away. */
function lostLines(change: NaiveChange): string[] {
  const left = new Map<string, number>();
  for (const l of splitLines(change.after ?? '')) left.set(l.trim(), (left.get(l.trim()) ?? 0) + 1);
  const lost: string[] = [];
  for (const l of splitLines(change.before ?? '')) {
    const key = l.trim();
    if (key === '') continue;
    const n = left.get(key) ?? 0;
    if (n > 0) left.set(key, n - 1);
    else lost.push(key);
  }
  return lost;
}

/**
 * Lines an edit drops rather than changes: in each run of removed and added lines of a line
 * diff, the removed lines beyond the added ones (a function replaced by "// … unchanged" drops
 * all but one of its lines; a line rewritten in place drops none). Blank lines do not count.
 */
function droppedLines(change: NaiveChange): string[] {
  const parts = diffArrays(splitLines(change.before ?? ''), splitLines(change.after ?? ''));
  const dropped: string[] = [];
  let removed: string[] = [];
  let added = 0;
  const settle = () => {
    const gone = removed.filter((l) => l.trim() !== '');
    dropped.push(...gone.slice(0, Math.max(0, gone.length - added)));
    removed = [];
    added = 0;
  };
  for (const p of parts) {
    if (p.removed) removed.push(...p.value);
    else if (p.added) added += p.value.filter((l) => l.trim() !== '').length;
    else settle();
  }
  settle();
  return dropped.map((l) => l.trim());
}

/** When the naive harness misses an edit the ACI placed, or says only "not found" where the ACI explained. */
function missedEdit(drift: string): (c: Context) => Judged {
  return (c) =>
    c.naive.changes.length === 0
      ? worse(
          `Exact match only: ${drift}, so the edit does not land; the model hears only "${c.naive.text.split('\n')[0]!.replace(/\.$/, '')}".`,
        )
      : same('The naive exact match found the same place.');
}

/** A rule about what the naive harness wrote; when it wrote nothing (its strict parser failed first), the plain comparison decides. */
function onWrite(rule: (c: Context) => Judged): (c: Context) => Judged {
  return (c) => (c.naive.changes.length ? rule(c) : compare(c));
}

/** A rule about a command the naive harness would run; when it would not (its strict parser failed first), the plain comparison decides. */
function onRun(rule: (c: Context) => Judged): (c: Context) => Judged {
  return (c) => (c.naive.ran !== undefined ? rule(c) : compare(c));
}

/** How much a truncated result held in full: the naive text, or for a command (not re-run here) the total the ACI's note names. */
function fullSize(c: Context): string {
  // A command's output capped while it ran names the bytes it wrote (about one character each here).
  const named = /\[output truncated: (?:the command wrote (\d+) bytes|(\d+) characters in total)/.exec(
    c.aci.evidence.text,
  );
  const total = Number(named?.[1] ?? named?.[2] ?? 0);
  return size(c.naive.ran === undefined ? c.naive.text.length : total);
}

/** The judgement for each mechanism the ACI's step shows; absent ones fall through to the plain comparison. */
const RULES: Partial<Record<MechanismId, (c: Context) => Judged>> = {
  'rung-trailing-ws': missedEdit("old_str's trailing spaces are not in the file"),
  'rung-indent': missedEdit("old_str's indentation differs from the file's"),
  'rung-blank-lines': missedEdit("old_str's blank lines differ from the file's"),
  'rung-quotes-dashes': missedEdit("old_str's quotes or dashes differ from the file's"),
  'rung-anchors': missedEdit('the middle of old_str was misremembered'),
  'gutter-stripped': missedEdit('the pasted "42|" line numbers are not in the file'),
  'gutter-partial': () =>
    worse('Both change nothing, but a bare "not found" does not say that the pasted line numbers are the problem.'),
  ambiguous: (c) => {
    const places = /matches (\d+) places/.exec(c.aci.evidence.text)?.[1] ?? 'several';
    return worse(
      `Both change nothing, but the naive harness says "not found" where the text is there ${places} times over, just written differently; nothing tells the model to add context.`,
    );
  },
  'found-n-times': () => same('Both refuse a non-unique old_str; the ACI also lists the lines and offers replace_all.'),
  'not-found-hint': () =>
    worse(
      'Both change nothing, but the naive "not found" quotes no closest lines and no first difference, so the model retries blind.',
    ),
  'no-op': () =>
    worse(
      'The naive harness reports "edited" for an edit that changed nothing, so the model believes its change is in.',
    ),
  'over-edit': (c) => {
    const lost = c.naive.changes.flatMap(droppedLines);
    if (!c.naive.changes.length) return same('Neither applies the whole-file edit.');
    return lost.length
      ? worse(
          `The whole-file edit is applied, and ${lost.length} line(s) the model left out are gone, e.g. "${lost[0]}".`,
        )
      : {
          verdict: 'better',
          why: 'The naive harness applies the whole-file edit in one step, and this time no line was lost; the guard refuses such edits because usually one is.',
        };
  },
  'unread-overwrite': onWrite((c) => {
    const lost = c.naive.changes.flatMap(lostLines);
    return worse(
      `${changedPaths(c)} is overwritten without ever being read: ${lost.length} line(s) the model never saw are gone.`,
    );
  }),
  'shrink-guard': onWrite((c) => {
    const ch = c.naive.changes[0];
    return worse(
      `${changedPaths(c)} goes from ${splitLines(ch?.before ?? '').length} lines to ${splitLines(ch?.after ?? '').length}: everything behind the placeholder is lost.`,
    );
  }),
  'syntax-revert': onWrite((c) =>
    worse(
      `${changedPaths(c)} is left on disk in a state that does not parse; the next test run fails to even load it.`,
    ),
  ),
  'read-window': (c) =>
    c.naive.text.length > c.aci.evidence.text.length
      ? worse(
          `The whole file comes back at once: ${size(c.naive.text.length)} where the ACI showed a window of ${size(c.aci.evidence.text.length)} and the call for the next page.`,
        )
      : same('Both show the lines asked for; the ACI adds where they sit in the file and the call for the next page.'),
  truncated: (c) =>
    worse(
      `Everything comes back: ${fullSize(c)}, more than the ${DEFAULT_SETTINGS.max_tool_chars}-character cap and most of a small model's context, with no hint how to narrow it.`,
    ),
  jail: (c) => worse(outsideWhy(c.naive)),
  'harness-dir': onWrite((c) =>
    worse(
      `${changedPaths(c)} is written: harness control state the harness would load on its next start, e.g. hooks that run commands.`,
    ),
  ),
  'loop-guard': () =>
    worse('The identical call runs again, with the same answer as the last times; nothing breaks the loop.'),
  'patch-report': (c) =>
    c.naive.changes.length
      ? worse(`The hunks that match are written and the others skipped: ${changedPaths(c)} is left half-patched.`)
      : same('No hunk applies, so nothing is written either way.'),
  'shell-refused': onRun((c) =>
    worse(
      `\`${c.naive.ran}\` runs as written: ${/\$\(|`/.test(c.naive.ran ?? '') ? 'the substitution runs a second command nobody saw' : 'the redirect writes a file behind the file tools, with no checkpoint'}.`,
    ),
  ),
  approval: onRun((c) => worse(`\`${c.naive.ran}\` runs without asking anyone.`)),
  stall: (c) => {
    const steps = /\[STALL — no test progress in the last (\d+) steps/.exec(c.aci.evidence.text)?.[1] ?? 'several';
    return worse(
      `Nothing measures progress, so no nudge tells the model it has gone ${steps} steps without a better test tally.`,
    );
  },
  'one-call': () =>
    worse('The first call runs and the rest are dropped silently: the model is not told, and may believe they ran.'),
  'final-json': (c) =>
    worse(
      c.naive.ended
        ? 'The prose is taken as the final answer: the run ends here, unverified, with no final test run.'
        : 'The naive parser fails on it too, but its error shows no canonical call to copy and no word on how a run ends.',
    ),
};

/** A naive call that leaves the project: what it would read or write there. */
function outsideWhy(naive: NaiveOutcome): string {
  const where = naive.outside ?? 'a path outside the project';
  return naive.changes.some((x) => x.outside)
    ? `With no jail, the naive harness would write ${where}, outside the project.`
    : `With no jail, the naive harness would read ${where}, outside the project, and show it to the model.`;
}

/** The plain comparison when no mechanism decides: same files touched the same way, same success. */
function compare(c: Context): Judged {
  if (c.naive.outside) return worse(outsideWhy(c.naive));
  if (c.naive.ended && c.aci.evidence.tool === 'done') {
    const final = /^Final test run \((\d+ passed, \d+ failed)\)/m.exec(c.aci.evidence.text)?.[1];
    return final
      ? worse(
          `Both end the run, but the naive harness ends it unverified; the ACI's done ran the tests one last time (${final}).`,
        )
      : same('Both end the run here.');
  }
  if (c.naive.ran !== undefined)
    return same(
      'The command runs the same way (it is not re-run here); a naive harness shows all its output, unparsed, with no pass/fail tally.',
    );
  const aciAfter = new Map(c.aci.changes.map((x) => [x.path, x.after]));
  const naiveAfter = new Map(c.naive.changes.map((x) => [x.path, x.after]));
  const sameFiles =
    aciAfter.size === naiveAfter.size && [...aciAfter].every(([p, a]) => naiveAfter.has(p) && naiveAfter.get(p) === a);
  if (c.naive.unparsed && c.aci.evidence.tool !== undefined)
    return worse(`The strict naive parser cannot read the call the ACI's parser read: ${c.naive.text}`);
  if (c.naive.ended && c.aci.evidence.tool !== 'done') return worse('The naive harness ends the run here.');
  if (!c.naive.ok && c.aci.evidence.ok === true) {
    const lost =
      c.aci.changes.length > c.naive.changes.length
        ? 'so the change the ACI made does not happen'
        : 'while the ACI ran it';
    return worse(`The call fails in the naive harness (${firstLine(c.naive.text)}), ${lost}.`);
  }
  const missing = /^(.+) does not exist\.$/m.exec(c.aci.evidence.text);
  if (missing && c.naive.text.startsWith('Error: no such file') && !c.aci.changes.length) {
    return worse(
      `Both fail, but the naive harness says only "${firstLine(c.naive.text)}"; the ACI names similarly named files when there are any, and the ws_glob or ws_list call that finds the right path.`,
    );
  }
  if (!sameFiles) {
    return c.aci.changes.length > c.naive.changes.length
      ? worse('The change the ACI made does not happen.')
      : worse(`The naive harness writes ${changedPaths(c)}, which the ACI did not.`);
  }
  return same(
    c.aci.changes.length ? 'Both make the same change.' : 'No guard is involved: a naive harness does the same here.',
  );
}

/** The first words of a result whose text came from outside (engine/web/banner.ts). */
const OUTSIDE_BANNER = '[outside text — ';

/**
 * A result carrying outside text (web_fetch, web_search, mcp_call): a naive harness hands the
 * text over as it came — the same words without the banner that marks them as data, so an
 * instruction written into a page reads like part of the task. Not fetched again: the words are
 * the ACI's own, less its first line.
 */
function outsideOff(evidence: StepEvidence): AciOff | null {
  if (!evidence.text.startsWith(OUTSIDE_BANNER)) return null;
  const body = evidence.text.slice(evidence.text.indexOf('\n') + 1);
  return {
    text: body,
    changes: [],
    verdict: 'worse',
    why:
      'The text from outside reaches the model unmarked, as if it were part of the task: an instruction written into the page or the answer ' +
      '("ignore the task…") is not set apart from the person\'s. The ACI heads it with a banner that says it is data, and the inspector bands it.',
  };
}

/** Verdicts from worst to best. */
const VERDICT_ORDER: readonly AciOffVerdict[] = ['worse', 'better', 'same'];

/** What the naive harness would have done with this step, beside what the ACI did, and the verdict. */
export function aciOff(input: AciOffInput): AciOff {
  const outside = outsideOff(input.aci.evidence);
  if (outside) return outside;
  const naive = runNaive(input.raw, input.files);
  const c: Context = { naive, aci: input.aci };
  const judged = detectMechanisms(input.aci.evidence).flatMap((id) => RULES[id]?.(c) ?? []);
  if (!judged.length) judged.push(compare(c));
  // Several mechanisms in one step (a read window and dropped calls): the worst verdict stands, with every reason for it.
  const verdict = VERDICT_ORDER.find((v) => judged.some((j) => j.verdict === v))!;
  const why = judged
    .filter((j) => j.verdict === verdict)
    .map((j) => j.why)
    .join(' ');
  return { text: naive.text, changes: naive.changes, verdict, why };
}

/** `aciOff` for a live step of the loop, given the files before it. */
export function aciOffForStep(step: Step, files: Readonly<Record<string, string>>): AciOff {
  return aciOff({ raw: step.raw, files, aci: { evidence: liveEvidence(step), changes: step.result?.changes ?? [] } });
}
