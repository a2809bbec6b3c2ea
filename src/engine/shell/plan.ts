/**
 * The execution plan: what the policy checked, in the form a runner executes without a shell.
 * For every stage of the pipeline: the decoded argv (a word bash would glob keeps its pattern),
 * the environment prefixes, what descriptor 0 reads (the pipe, nothing, a heredoc's or
 * here-string's exact bytes, or a workspace file) and where descriptors 1 and 2 go after the
 * stage's redirections are applied in order, as bash applies them. A construct the plan cannot
 * express — another descriptor, closing one, duplicating input, a heredoc whose end bash and
 * tree-sitter-bash might find in different places — is a finding: the command is refused rather
 * than handed to something that would read it again.
 */
import type { ExecSink } from '../workspace.ts';
import type { PlanArg, PlanInput, PlanStage, ShellPlan } from './plan-types.ts';
import { never, q, USE, type Finding } from './decision.ts';
import { readHeredocBody } from './heredoc.ts';
import type { Redirect, Stage } from './syntax.ts';
import type { Word } from './words.ts';

const GLOB_CHARS = '*?[';
/** Characters a bash pattern gives meaning to, escaped when they were quoted. */
const PATTERN_SPECIAL = '*?[]\\!^-';

/** The word as a plan argument: a pattern only when an unquoted glob character is in it. */
function planArg(w: Word): PlanArg {
  let glob = false;
  let pattern = '';
  for (let i = 0; i < w.text.length; i++) {
    const c = w.text[i]!;
    const quoted = w.quoted[i] !== false;
    if (!quoted && GLOB_CHARS.includes(c)) glob = true;
    pattern += quoted && PATTERN_SPECIAL.includes(c) ? `\\${c}` : !quoted && c === '\\' ? '\\\\' : c;
  }
  return glob ? { text: w.text, glob: pattern } : { text: w.text };
}

function unsupported(r: Redirect, why: string): Finding {
  return never(
    'redirect-plan',
    `the redirection ${q(r.raw)} ${why}`,
    'Use 2>&1, >/dev/null, 2>/dev/null, < FILE, a here-string or one heredoc with a quoted delimiter.',
  );
}

/** The stdin of a heredoc, found the way bash finds it, or why it cannot be trusted. */
function heredocInput(r: Redirect, src: string): PlanInput | Finding {
  const h = r.heredoc;
  if (!h) return unsupported(r, 'is a heredoc the policy could not locate');
  const firstNewline = src.indexOf('\n');
  if (firstNewline === -1 || firstNewline < h.lineTokensEnd) {
    return never(
      'heredoc',
      `the heredoc ${q(r.raw)} must have its command on one line and its body on the lines after it`,
      USE.oneCommand,
    );
  }
  if (src[firstNewline - 1] === '\\')
    return never('heredoc', "the heredoc's command line ends with a line continuation", USE.oneCommand);
  const read = readHeredocBody(src, h.delimiterRaw, h.stripTabs, firstNewline);
  if (!read.ok)
    return never(
      'heredoc',
      read.why,
      "Write the input with a quoted delimiter (cat <<'EOF'), or put it in a file with ws_write.",
    );
  if (read.end !== h.treeEnd) {
    return never(
      'heredoc',
      `the heredoc ${q(r.raw)} could end at more than one line, depending on who reads it`,
      'Write the input with a quoted delimiter that no line of the body equals.',
    );
  }
  if (src.slice(read.end).trim() !== '') {
    return never(
      'chaining',
      `text after the heredoc's last line ${q(src.slice(read.end).trim())} would run as another command`,
      USE.oneCommand,
    );
  }
  if (!read.quoted && /[$`\\]/.test(read.body)) {
    return never(
      'heredoc',
      `the heredoc body has $, \` or \\, which bash expands because the delimiter ${q(read.delimiter)} is not quoted`,
      `Quote the delimiter (<<'${read.delimiter}') so the body is literal.`,
    );
  }
  return { kind: 'text', text: read.body, from: 'heredoc' };
}

/** Where `>` to a device path sends the output, given the current routing. */
function deviceSink(target: string, fds: { 1: ExecSink; 2: ExecSink }): ExecSink | null {
  if (target === '/dev/null') return 'null';
  if (target === '/dev/stdout') return fds[1];
  if (target === '/dev/stderr') return fds[2];
  return null;
}

/** Applies one stage's redirections in order: its stdin and the final routing of descriptors 1 and 2. */
function routeStage(
  stage: Stage,
  first: boolean,
  src: string,
): { stdin: PlanInput; stdout: ExecSink; stderr: ExecSink } | Finding {
  const fds: { 1: ExecSink; 2: ExecSink } = { 1: 'next', 2: 'output' };
  let stdin: PlanInput = first ? { kind: 'empty' } : { kind: 'pipe' };
  let heredocs = 0;
  for (const r of stage.redirects) {
    const fd = r.fd === null ? null : Number(r.fd);
    if (r.kind === 'heredoc') {
      if (++heredocs > 1) return never('heredoc', 'a command may read one heredoc', USE.oneCommand);
      if (fd !== null && fd !== 0) return unsupported(r, 'feeds a descriptor other than stdin');
      const input = heredocInput(r, src);
      if ('tier' in input) return input;
      stdin = input;
      continue;
    }
    const target = r.target?.text ?? null;
    if (r.kind === 'herestring') {
      if (fd !== null && fd !== 0) return unsupported(r, 'feeds a descriptor other than stdin');
      stdin = { kind: 'text', text: `${target ?? ''}\n`, from: 'herestring' };
      continue;
    }
    if (r.op === '<') {
      if (fd !== null && fd !== 0) return unsupported(r, 'opens a file on a descriptor other than stdin');
      if (target === null) return unsupported(r, 'has no file');
      if (target === '/dev/null') stdin = { kind: 'empty' };
      else if (target.startsWith('/dev/')) return unsupported(r, 'reads a device');
      else stdin = { kind: 'file', path: target };
      continue;
    }
    if (r.op === '>&-' || r.op === '<&-') return unsupported(r, 'closes a descriptor');
    if (r.op === '<&') return unsupported(r, 'duplicates an input descriptor');
    if (target === null) return unsupported(r, 'has no target');
    if (r.op === '&>' || r.op === '&>>' || (r.op === '>&' && fd === null && !/^\d+$/.test(target))) {
      const sink = deviceSink(target, fds);
      if (sink === null) return unsupported(r, 'writes a file');
      fds[1] = sink;
      fds[2] = sink;
      continue;
    }
    const n = fd ?? 1;
    if (n !== 1 && n !== 2)
      return unsupported(r, `uses descriptor ${n}; only 1 (stdout) and 2 (stderr) can be redirected`);
    if (r.op === '>&') {
      if (target !== '1' && target !== '2')
        return unsupported(r, target === '-' ? 'closes a descriptor' : `duplicates descriptor ${target}`);
      fds[n] = fds[Number(target) as 1 | 2];
      continue;
    }
    if (r.op === '>' || r.op === '>>' || r.op === '>|') {
      const sink = deviceSink(target, fds);
      if (sink === null) return unsupported(r, 'writes a file');
      fds[n] = sink;
      continue;
    }
    return unsupported(r, 'is not one the runner can carry out without a shell');
  }
  if (stage.pipeStderr) fds[2] = fds[1];
  return { stdin, stdout: fds[1], stderr: fds[2] };
}

/** The plan for stages the policy read (and judged), or the finding that refuses the command. */
export function planFor(stages: readonly Stage[], src: string): ShellPlan | Finding {
  const out: PlanStage[] = [];
  for (const [i, stage] of stages.entries()) {
    if (stage.words.length === 0) return never('syntax', `${q(stage.raw)} has no command to run`, USE.oneCommand);
    const routed = routeStage(stage, i === 0, src);
    if ('tier' in routed) return routed;
    const args = stage.words.map(planArg);
    const outside = args.find(
      (a) => a.glob !== undefined && (a.glob.startsWith('/') || a.glob.split('/').includes('..')),
    );
    if (outside) {
      return never('outside-path', `the pattern ${q(outside.text)} would be matched outside the workspace`, USE.jail);
    }
    out.push({
      args,
      env: Object.fromEntries(stage.assignments.map((a) => [a.name, a.value.text])),
      ...routed,
    });
  }
  return { stages: out };
}
