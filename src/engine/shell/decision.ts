/**
 * What the shell policy answers, and how its messages read. Every rule in the policy produces a
 * `Finding` (what is wrong, quoted, and what to use instead); `decisionFrom` turns the worst
 * finding of a command into the public `ShellDecision`.
 */
import type { ShellPlan } from './plan-types.ts';

/** free = runs now; gated = runs only after a person approves it in the UI; never = never runs. */
export type ShellTier = 'free' | 'gated' | 'never';

/** The policy's answer for one command line (the `slm check-shell` output shape). */
export interface ShellDecision {
  readonly decision: 'allow' | 'gated' | 'refuse';
  readonly tier: ShellTier;
  /** One or two sentences for the model: the offending part quoted, and the tool to use instead. */
  readonly reason: string;
  /** Machine-readable rule id (for notes and the inspector), e.g. "redirect-write". */
  readonly rule: string;
  /** The argument list of each pipeline stage, once the command parsed into literal words. */
  readonly argv?: string[][];
  /** For allow and gated: exactly what will run (plan.ts); runners execute this, never the text. */
  readonly plan?: ShellPlan;
  /**
   * For a gated command: the paths it would write, as the approval prompt lists them (empty when
   * it writes none). Absent when the rule cannot tell.
   */
  readonly writes?: readonly string[];
}

/** Why one part of a command is not free. `what` already quotes the offending text. */
export interface Finding {
  readonly tier: 'gated' | 'never';
  readonly rule: string;
  readonly what: string;
  /** The next step: which tool to use instead, or how to rewrite the command. */
  readonly use?: string;
  /** For a gated finding: the paths the command would write (see ShellDecision.writes). */
  readonly writes?: readonly string[];
}

/** What a rule says about one command: a finding, or that it is free (with what it does, for the message). */
export type Verdict = Finding | { readonly free: string };

/** True when a verdict is a finding (gated or never) rather than free. */
export function isFinding(v: Verdict): v is Finding {
  return 'tier' in v;
}

/** The recovery pointers, one per family of refusal, so every rule names the same tools the same way. */
export const USE = {
  write:
    'Write files with ws_write (new files), ws_edit or ws_patch (changes); redirecting to /dev/null and 2>&1 are fine.',
  delete: 'Delete files with ws_delete (it keeps a checkpoint).',
  move: 'Rename or move files with ws_mv.',
  find: 'Find files with ws_glob and search their contents with ws_grep.',
  gitRead:
    'For repository state use git_status and git_diff, or run the read-only git command alone (git status, git log, git diff, git show).',
  oneCommand:
    'Send one command per ws_shell call (a single command or a read-only pipeline); make another call for the next one.',
  substitution: 'Run the inner command on its own call first, then pass its output as literal text.',
  literal: 'Write the value out literally; ws_shell does not expand variables, globs in command names, braces or ~.',
  jail: 'Only paths inside the workspace can be used, written relative to its root (e.g. src/index.ts); ws_list shows the tree.',
  wrapper: 'Run the command itself without a wrapper; ws_shell already applies a timeout and keeps the process group.',
  inlineCode: 'Write the code to a file with ws_write, then run that file (e.g. node file.js).',
  tests: 'Run the test runner without that option (npm test, npx vitest run, pytest, go test …).',
  approval:
    'It runs only after a person approves it in the UI; prefer a read-only command or a ws_* tool if one does the job.',
  readOnly:
    "ws_shell runs read-only tools (ls, cat, grep, rg, find, git status/log/diff …) and the project's test runners freely.",
} as const;

/** Shortens long quoted text so a message stays one line. */
function clip(text: string, max = 60): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Quotes source text for a message: JSON-style, so control characters stay visible. */
export function q(text: string): string {
  return JSON.stringify(clip(text));
}

/** A finding that refuses the command outright. */
export function never(rule: string, what: string, use?: string): Finding {
  return use === undefined ? { tier: 'never', rule, what } : { tier: 'never', rule, what, use };
}

/** A finding that lets the command run once a person approves it. */
export function gated(rule: string, what: string, use: string = USE.approval): Finding {
  return { tier: 'gated', rule, what, use };
}

/** The worst of several findings: never beats gated; among equals the first (leftmost) wins. */
export function worst(findings: readonly (Finding | null)[]): Finding | null {
  let best: Finding | null = null;
  for (const f of findings) {
    if (f && (best === null || (best.tier === 'gated' && f.tier === 'never'))) best = f;
  }
  return best;
}

/** The public decision for a command: its worst finding, or allow with a description of what runs. */
export function decisionFrom(
  finding: Finding | null,
  allowed: string,
  argv?: string[][],
  plan?: ShellPlan,
): ShellDecision {
  const withArgv = { ...(argv ? { argv } : {}), ...(plan && finding?.tier !== 'never' ? { plan } : {}) };
  if (finding === null) {
    return { decision: 'allow', tier: 'free', reason: `allowed (tier free): ${allowed}.`, rule: 'free', ...withArgv };
  }
  const tail = finding.use ? ` ${finding.use}` : '';
  if (finding.tier === 'gated') {
    const writes = finding.writes ? { writes: finding.writes } : {};
    return {
      decision: 'gated',
      tier: 'gated',
      reason: `needs approval (tier gated): ${finding.what}.${tail}`,
      rule: finding.rule,
      ...withArgv,
      ...writes,
    };
  }
  return {
    decision: 'refuse',
    tier: 'never',
    reason: `refused (tier never): ${finding.what}.${tail}`,
    rule: finding.rule,
    ...withArgv,
  };
}
