/**
 * xargs is never a process: the runner does what it does, so every command it would start is
 * judged by the policy before it runs. The stages before xargs run to completion first (their
 * output bounded, their terminal error output not kept), that output is split exactly as GNU
 * xargs splits it (`shell/xargs-split.ts`), and each resulting argv goes through `decideLiteral`
 * — the same rules as any command line — then runs as a plain stage: `find . -name environ |
 * xargs cat` reading `./a /proc/self/environ` is refused, because `cat ./a /proc/self/environ`
 * is. Every backend runs plans through here (run-command.ts), so none of them ever sees xargs.
 */
import type { ToolContext } from '../context.ts';
import type { ExecOptions, ExecPlan, ExecResult, ExecStage } from '../workspace.ts';
import { decideLiteral } from '../shell/policy.ts';
import { readXargs, splitXargs } from '../shell/xargs-split.ts';

/** What the stages before xargs may print, most: its input is held whole. */
export const MAX_XARGS_INPUT_BYTES = 1024 * 1024;

/** Commands one xargs stage may start, most. */
export const MAX_XARGS_COMMANDS = 1000;

export type XargsOutcome =
  | { readonly ok: true; readonly exec: ExecResult; readonly notes: readonly string[] }
  | { readonly ok: false; readonly why: string; readonly rule: string };

function isXargs(stage: ExecStage): boolean {
  const name = stage.argv[0] ?? '';
  return name === 'xargs' || name.endsWith('/xargs');
}

function clip(text: string, max = 160): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function refused(why: string, rule = 'xargs'): XargsOutcome {
  return { ok: false, why, rule };
}

/** The commands' results as xargs reports them: 124 after an exit 255, 125 after a signal, 126/127 as they are, 123 after any other failure. */
function xargsExit(code: number | null): { readonly code: number; readonly stop: boolean } | null {
  if (code === 0) return null;
  if (code === 255) return { code: 124, stop: true };
  if (code === 126 || code === 127) return { code, stop: true };
  if (code === null || code > 128) return { code: 125, stop: true };
  return { code: 123, stop: false };
}

/**
 * Runs `plan` on the workspace, carrying out each xargs stage itself. A plan without xargs runs
 * as it is. A refusal says which command xargs would have started and why it may not run.
 */
export async function runWithXargs(ctx: ToolContext, plan: ExecPlan, opts: ExecOptions): Promise<XargsOutcome> {
  const at = plan.stages.findIndex(isXargs);
  // A workspace that can run no command answers the plan itself (nothing of it runs), saying why:
  // carried out here, its empty listing would read as a run that succeeded with no output.
  if (at < 0 || ctx.ws.runsCommands === false) return { ok: true, exec: await ctx.ws.exec(plan, opts), notes: [] };
  const deadline = Date.now() + opts.timeoutMs;
  const left = () => Math.max(1, deadline - Date.now());
  const stage = plan.stages[at]!;
  const spec = readXargs(stage.argv.slice(1));
  if (typeof spec === 'string') return refused(spec, 'xargs-option');

  let input = '';
  let feedNote: string | undefined;
  if (at > 0) {
    if (stage.stdin !== 'pipe')
      return refused('xargs reads a redirection here while a pipe feeds it; drop one of the two');
    // The terminal error output of the stages before xargs is dropped: it must not become xargs's input.
    const before = plan.stages
      .slice(0, at)
      .map((s) => ({ ...s, stderr: s.stderr === 'output' ? ('null' as const) : s.stderr }));
    const fed = await ctx.ws.exec(
      { stages: before },
      { ...opts, timeoutMs: left(), maxOutputBytes: MAX_XARGS_INPUT_BYTES },
    );
    if (fed.timedOut)
      return { ok: true, exec: { ...fed, output: '' }, notes: ['timed out in the stages before xargs'] };
    if (fed.truncated)
      return refused(
        `the stages before xargs printed ${fed.totalBytes} bytes, over the ${MAX_XARGS_INPUT_BYTES}-byte limit for xargs's input; narrow the listing`,
        'xargs-input',
      );
    input = fed.output;
    if (fed.exitCode !== 0)
      feedNote = `the stages before xargs exited ${fed.exitCode}; their error output is not shown (it would have been mixed into xargs's input)`;
  } else if (stage.stdin instanceof Uint8Array) {
    input = new TextDecoder().decode(stage.stdin);
  }

  const split = splitXargs(spec, input);
  if (typeof split === 'string') return refused(split, 'xargs-input');
  if (split.commands.length > MAX_XARGS_COMMANDS)
    return refused(
      `xargs would start ${split.commands.length} commands, over the limit of ${MAX_XARGS_COMMANDS}; give it fewer inputs or a larger -n`,
    );
  for (const argv of split.commands) {
    const again = decideLiteral([argv]);
    if (again.decision !== 'allow')
      return refused(
        `xargs would run ${JSON.stringify(clip(argv.join(' ')))}, and that command ${again.reason}`,
        again.rule,
      );
  }

  const asStage = (argv: readonly string[]): ExecStage => ({
    argv,
    ...(stage.env ? { env: stage.env } : {}),
    stdin: 'empty',
    stdout: stage.stdout,
    stderr: stage.stderr,
  });
  const after = plan.stages.slice(at + 1);
  const note = `xargs carried out by ws_shell: ${split.commands.length} command${split.commands.length === 1 ? '' : 's'}, each checked before it ran${feedNote ? `; ${feedNote}` : ''}`;
  if (after.length > 0) {
    if (split.commands.length > 1) {
      return refused(
        `xargs would run ${split.commands.length} commands here and pipe their output on; ws_shell pipes on the output of one command only: put xargs last, or give it inputs for one command`,
      );
    }
    const rest =
      split.commands.length === 1
        ? [asStage(split.commands[0]!), ...after]
        : [{ ...after[0]!, stdin: 'empty' as const }, ...after.slice(1)];
    const ran = await runWithXargs(ctx, { stages: rest }, { ...opts, timeoutMs: left() });
    return ran.ok ? { ...ran, notes: [note, ...ran.notes] } : ran;
  }

  // The last stage: each command in turn, as xargs runs them, their output one after another.
  const parts: string[] = [];
  let kept = 0;
  let total = 0;
  let truncated = false;
  let exit: { code: number; stop: boolean } | null = null;
  let timedOut = false;
  let backendNote: string | undefined;
  let runtime: string | undefined;
  for (const argv of split.commands) {
    const r = await ctx.ws.exec({ stages: [asStage(argv)] }, { ...opts, timeoutMs: left() });
    total += r.totalBytes;
    truncated ||= r.truncated;
    if (kept < opts.maxOutputBytes) {
      const part = r.output.slice(0, opts.maxOutputBytes - kept);
      truncated ||= part.length < r.output.length;
      parts.push(part);
      kept += part.length;
    } else if (r.output.length) truncated = true;
    backendNote ??= r.backendNote;
    runtime ??= r.runtime;
    if (r.timedOut) {
      timedOut = true;
      break;
    }
    const e = xargsExit(r.exitCode);
    if (e && (exit === null || e.stop)) exit = e;
    if (e?.stop) break;
  }
  if (split.error) {
    parts.push(`${split.error}\n`);
    exit = { code: 1, stop: true };
  }
  const exec: ExecResult = {
    exitCode: timedOut ? null : (exit?.code ?? 0),
    output: parts.join(''),
    totalBytes: total,
    truncated,
    timedOut,
    ...(backendNote ? { backendNote } : {}),
    ...(runtime ? { runtime } : {}),
  };
  return { ok: true, exec, notes: [note] };
}
