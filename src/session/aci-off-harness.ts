/**
 * The naive harness behind "ACI off": what an exact-match, untruncated, unguarded tool loop
 * would do with one raw model output. It reads the first JSON object only, strictly (no
 * aliases, no repairs, no fences looked through); ws_edit is a unique exact str_replace; reads,
 * searches and listings return everything; writes overwrite freely, anywhere a plain `..`
 * normalisation leads; nothing is checked after an edit; commands would run as written.
 *
 * It never touches a real workspace: it works on a scratch copy of the files (a Map), and a
 * path outside the project is only reported, never written or read. Commands are not run —
 * the result says what would have run. Pure TypeScript: it runs in the browser worker and in
 * Node alike.
 */
import { RE2JS } from 're2js';
import { matchObject } from '../agent/json-scan.ts';
import type { FileChange } from '../engine/result.ts';
import { parsePatchText } from '../engine/patch/parse.ts';
import { plainName } from '../engine/patch/unified.ts';
import { splitLines } from '../engine/text.ts';
import { numberedLine } from '../engine/tools/ws_read.ts';
import { globMatcher, isGlobRefusal } from '../engine/glob-match.ts';

/** A file the naive harness would have written, created or removed. */
export interface NaiveChange extends FileChange {
  /** True when the path lies outside the project: shown, never written. */
  readonly outside: boolean;
}

/** What the naive harness did with one raw output. */
export interface NaiveOutcome {
  /** The parsed call's tool, when the naive parser found one. */
  readonly tool?: string;
  /** What the model would have seen next. */
  readonly text: string;
  readonly ok: boolean;
  readonly changes: readonly NaiveChange[];
  /** The run would have ended here (a done call, or a reply with no JSON taken as the final answer). */
  readonly ended: boolean;
  /** A command that would have run, as written. */
  readonly ran?: string;
  /** A path outside the project the call would have read or written. */
  readonly outside?: string;
  /** The call could not even be parsed. */
  readonly unparsed?: boolean;
}

type Files = Map<string, string>;
type Args = Record<string, unknown>;

/** Where a path leads: inside the project (root-relative) or outside it (as a plain normalisation spells it). */
type Place = { readonly inside: true; readonly path: string } | { readonly inside: false; readonly shown: string };

/** Plain `..` normalisation, the only jail the naive harness has. */
export function naivePlace(raw: string): Place {
  const absolute = raw.startsWith('/');
  const out: string[] = [];
  let above = 0;
  for (const seg of raw.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg !== '..') out.push(seg);
    else if (out.length) out.pop();
    else above++;
  }
  if (absolute) return { inside: false, shown: `/${out.join('/')}` };
  if (above) return { inside: false, shown: [...Array<string>(above).fill('..'), ...out].join('/') };
  return { inside: true, path: out.join('/') };
}

function result(text: string, ok: boolean, extra: Partial<NaiveOutcome> = {}): NaiveOutcome {
  return { text, ok, changes: [], ended: false, ...extra };
}

/** Reads the first JSON object of `raw` strictly: `{"tool": string, "args": object}` or nothing. */
function naiveParse(raw: string): { ok: true; tool: string; args: Args } | { ok: false; outcome: NaiveOutcome } {
  const start = raw.indexOf('{');
  if (start < 0) {
    const text =
      '(no JSON in the reply: a naive harness takes it as the final answer and ends the run here — no done, no final test run)';
    return { ok: false, outcome: result(text, true, { ended: true, unparsed: true }) };
  }
  const span = matchObject(raw, start);
  let value: unknown;
  try {
    value = JSON.parse(raw.slice(span.start, span.end));
  } catch (e) {
    return {
      ok: false,
      outcome: result(`Error: the first JSON object in the reply does not parse (${(e as Error).message}).`, false, {
        unparsed: true,
      }),
    };
  }
  const obj = value as { tool?: unknown; args?: unknown } | null;
  if (typeof obj?.tool !== 'string' || typeof obj.args !== 'object' || obj.args === null || Array.isArray(obj.args)) {
    return {
      ok: false,
      outcome: result('Error: the first JSON object in the reply is not {"tool": …, "args": {…}}.', false, {
        unparsed: true,
      }),
    };
  }
  return { ok: true, tool: obj.tool, args: obj.args as Args };
}

function str(args: Args, key: string): string | undefined {
  const v = args[key];
  return typeof v === 'string' ? v : undefined;
}

function missing(tool: string, key: string): NaiveOutcome {
  return result(`Error: ${tool} needs "${key}".`, false);
}

/** A file the naive harness reads: inside the scratch copy, or reported as outside the project. */
function open(
  files: Files,
  raw: string,
): { ok: true; path: string; text: string } | { ok: false; outcome: NaiveOutcome } {
  const place = naivePlace(raw);
  if (!place.inside) {
    const text = `(would read ${place.shown}, outside the project — a naive harness has no jail; this scratch copy holds only the project, so its content is not shown)`;
    return { ok: false, outcome: result(text, true, { outside: place.shown }) };
  }
  const text = files.get(place.path);
  return text === undefined
    ? { ok: false, outcome: result(`Error: no such file: ${raw}`, false) }
    : { ok: true, path: place.path, text };
}

/** Writes `after` (null removes) inside the scratch copy, or records a write outside the project. */
function write(files: Files, raw: string, after: string | null, message: string): NaiveOutcome {
  const place = naivePlace(raw);
  if (!place.inside) {
    return result(message, true, {
      changes: [{ path: place.shown, before: null, after, outside: true }],
      outside: place.shown,
    });
  }
  const before = files.get(place.path) ?? null;
  if (after === null) files.delete(place.path);
  else files.set(place.path, after);
  return result(message, true, { changes: [{ path: place.path, before, after, outside: false }] });
}

/** How many times `needle` occurs in `hay` (non-overlapping, as str_replace counts). */
function occurrences(hay: string, needle: string): number {
  return needle === '' ? Infinity : hay.split(needle).length - 1;
}

function naiveEdit(files: Files, args: Args): NaiveOutcome {
  const path = str(args, 'path');
  const oldStr = str(args, 'old_str');
  const newStr = str(args, 'new_str');
  if (path === undefined) return missing('ws_edit', 'path');
  if (oldStr === undefined) return missing('ws_edit', 'old_str');
  if (newStr === undefined) return missing('ws_edit', 'new_str');
  const f = open(files, path);
  if (!f.ok) return f.outcome;
  const n = occurrences(f.text, oldStr);
  if (n === 0) return result(`Error: old_str not found in ${path}.`, false);
  if (n > 1 && args.replace_all !== true)
    return result(
      `Error: old_str occurs ${Number.isFinite(n) ? n : 'more than once'} times in ${path}; it must be unique.`,
      false,
    );
  const after = args.replace_all === true ? f.text.split(oldStr).join(newStr) : f.text.replace(oldStr, () => newStr);
  return write(files, path, after, `edited ${path}`);
}

function naiveReplaceLines(files: Files, args: Args): NaiveOutcome {
  const path = str(args, 'path');
  if (path === undefined) return missing('ws_replace_lines', 'path');
  const f = open(files, path);
  if (!f.ok) return f.outcome;
  const start = Number(args.start);
  const end = Number(args.end);
  const lines = splitLines(f.text);
  const fresh = str(args, 'new') ?? '';
  // No content hash: the line numbers are trusted, whatever happened to the file since the read.
  lines.splice(start - 1, Math.max(0, end - start + 1), ...(fresh === '' ? [] : splitLines(fresh)));
  return write(files, path, `${lines.join('\n')}\n`, `replaced lines ${start}-${end} of ${path}`);
}

/** Each hunk applied on its own by exact text; a hunk that misses is skipped and the others are written (as `patch` leaves rejects). */
function naivePatch(files: Files, args: Args): NaiveOutcome {
  const text = str(args, 'patch');
  if (text === undefined) return missing('ws_patch', 'patch');
  const parsed = parsePatchText(text);
  if (!parsed.ok) return result('Error: not a patch.', false);
  const file = parsed.patch.files[0]!;
  const name = str(args, 'path') ?? file.headers?.new ?? file.headers?.old ?? undefined;
  if (name === undefined) return missing('ws_patch', 'path');
  const target = plainName(name);
  const place = naivePlace(target);
  const before = place.inside ? (files.get(place.path) ?? '') : '';
  let after = before;
  const report: string[] = [];
  file.hunks.forEach((h, i) => {
    const oldText = h.oldLines.join('\n');
    if (oldText === '' || occurrences(after, oldText) !== 1) {
      report.push(`hunk ${i + 1}: FAILED (skipped)`);
      return;
    }
    after = after.replace(oldText, () => h.newLines.join('\n'));
    report.push(`hunk ${i + 1}: applied`);
  });
  if (after === before) return result(`Error: no hunk applied to ${target}.\n${report.join('\n')}`, false);
  return write(files, target, after, `patched ${target}\n${report.join('\n')}`);
}

function naiveList(files: Files, args: Args): NaiveOutcome {
  const place = naivePlace(str(args, 'path') ?? '.');
  if (!place.inside) return result(`(would list ${place.shown}, outside the project)`, true, { outside: place.shown });
  const prefix = place.path === '' ? '' : `${place.path}/`;
  const names = new Set<string>();
  for (const p of files.keys()) {
    if (!p.startsWith(prefix)) continue;
    const rest = p.slice(prefix.length);
    names.add(rest.includes('/') ? `${rest.slice(0, rest.indexOf('/'))}/` : rest);
  }
  return result([...names].sort().join('\n'), true);
}

function naiveGlob(files: Files, args: Args): NaiveOutcome {
  const pattern = str(args, 'pattern');
  if (pattern === undefined) return missing('ws_glob', 'pattern');
  const isMatch = globMatcher(pattern);
  if (isGlobRefusal(isMatch)) return result(`ws_glob: ${isMatch.refused}`, false);
  return result(
    [...files.keys()]
      .filter((p) => isMatch(p))
      .sort()
      .join('\n'),
    true,
  );
}

function naiveGrep(files: Files, args: Args): NaiveOutcome {
  const pattern = str(args, 'pattern');
  if (pattern === undefined) return missing('ws_grep', 'pattern');
  // RE2, as the engine's own ws_grep: a backtracking pattern such as `(a|aa)+$` beside a long
  // line would block this thread, past a replay's deadline, on a record that asked for it.
  let re: RE2JS;
  try {
    re = RE2JS.compile(pattern, args.case_insensitive === true ? RE2JS.CASE_INSENSITIVE : 0);
  } catch (e) {
    return result(`Error: invalid regular expression: ${(e as Error).message}`, false);
  }
  const scope = str(args, 'path');
  const place = scope === undefined ? null : naivePlace(scope);
  if (place && !place.inside)
    return result(`(would search ${place.shown}, outside the project)`, true, { outside: place.shown });
  const under = place?.path ?? '';
  const hits: string[] = [];
  for (const [path, text] of [...files.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (under && path !== under && !path.startsWith(`${under}/`)) continue;
    splitLines(text).forEach((line, i) => {
      if (re.test(line)) hits.push(`${path}:${i + 1}: ${line}`);
    });
  }
  return result(hits.join('\n'), true);
}

/** A command is not run here; the text says what a naive harness would have done with it. */
function naiveCommand(command: string): NaiveOutcome {
  return result(
    `$ ${command}\n(a naive harness hands this line to sh -c as written, with no policy and no approval, and shows all of its output unparsed; it is not run here)`,
    true,
    { ran: command },
  );
}

/** Runs one parsed call against the scratch copy `files` (mutated). */
function naiveCall(files: Files, tool: string, args: Args): NaiveOutcome {
  switch (tool) {
    case 'ws_read': {
      const path = str(args, 'path');
      if (path === undefined) return missing(tool, 'path');
      const f = open(files, path);
      if (!f.ok) return f.outcome;
      // offset/limit are honoured when given; without them the whole file comes back, however long.
      const first = Math.max(1, Number(args.offset ?? 1) || 1);
      const lines = splitLines(f.text);
      const last = args.limit === undefined ? lines.length : Math.min(lines.length, first + Number(args.limit) - 1);
      return result(
        lines
          .slice(first - 1, last)
          .map((l, i) => numberedLine(first + i, l))
          .join('\n'),
        true,
      );
    }
    case 'ws_write': {
      const path = str(args, 'path');
      const content = str(args, 'content');
      if (path === undefined) return missing(tool, 'path');
      if (content === undefined) return missing(tool, 'content');
      return write(files, path, content, `wrote ${path}`);
    }
    case 'ws_edit':
      return naiveEdit(files, args);
    case 'ws_replace_lines':
      return naiveReplaceLines(files, args);
    case 'ws_patch':
      return naivePatch(files, args);
    case 'ws_list':
      return naiveList(files, args);
    case 'ws_glob':
      return naiveGlob(files, args);
    case 'ws_grep':
      return naiveGrep(files, args);
    case 'ws_mv': {
      const from = str(args, 'from');
      const to = str(args, 'to');
      if (from === undefined || to === undefined) return missing(tool, from === undefined ? 'from' : 'to');
      const f = open(files, from);
      if (!f.ok) return f.outcome;
      const removed = write(files, from, null, '');
      const added = write(files, to, f.text, `moved ${from} to ${to}`);
      return { ...added, changes: [...removed.changes, ...added.changes] };
    }
    case 'ws_delete': {
      const path = str(args, 'path');
      if (path === undefined) return missing(tool, 'path');
      const f = open(files, path);
      return f.ok ? write(files, path, null, `deleted ${path}`) : f.outcome;
    }
    case 'ws_shell':
      return naiveCommand(str(args, 'command') ?? '');
    case 'ws_test':
      return naiveCommand('npm test');
    case 'done':
      return result(`Run ended: ${str(args, 'summary') ?? ''}`, true, { ended: true });
    default:
      // git_status, git_diff, ws_todo, ws_skill: no ACI guard is involved, so a naive harness would answer alike.
      return result(`(${tool}: no guard is involved, so a naive harness answers as the ACI did)`, true);
  }
}

/** What the naive harness does with `raw`, given the project's files before the step. */
export function runNaive(raw: string, before: Readonly<Record<string, string>>): NaiveOutcome {
  const parsed = naiveParse(raw);
  if (!parsed.ok) return parsed.outcome;
  const outcome = naiveCall(new Map(Object.entries(before)), parsed.tool, parsed.args);
  return { ...outcome, tool: parsed.tool };
}
