/**
 * A bare option value that names a workspace file. The policy sees `npx vitest --runner x` as
 * naming the built-in or package `x`; with a file `x` at the root, the runner resolves it to that
 * file and loads it. So before a command runs, every bare word that is an option's value
 * (`--opt=x`, or the word after an option) and names an existing workspace file is tried again as
 * `./x` through `decideLiteral`: if the policy gates that spelling as a file an unknown option
 * loads (rule `option-file`), the command does not run, and the message says to write the path
 * out so a person can approve it.
 */
import type { ToolContext } from '../context.ts';
import type { ExecPlan } from '../workspace.ts';
import { decideLiteral } from '../shell/policy.ts';
import { looksLikePath, OPTION_FILE_RULE } from '../shell/unknown-options.ts';

/** Words tried per command, most: past this the rest are not looked up. */
const MAX_CANDIDATES = 64;

/** Each bare option value of `argv`: its index and the word with the value spelled `./value`. */
function candidates(argv: readonly string[]): { index: number; value: string; spelled: string }[] {
  const out: { index: number; value: string; spelled: string }[] = [];
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i]!;
    const eq = w.indexOf('=');
    if (w.startsWith('-') && eq > 0) {
      const value = w.slice(eq + 1);
      if (value !== '' && !looksLikePath(value))
        out.push({ index: i, value, spelled: `${w.slice(0, eq + 1)}./${value}` });
      continue;
    }
    const prev = argv[i - 1]!;
    if (
      !w.startsWith('-') &&
      w !== '' &&
      !looksLikePath(w) &&
      prev.startsWith('-') &&
      prev !== '--' &&
      !prev.includes('=')
    )
      out.push({ index: i, value: w, spelled: `./${w}` });
  }
  return out.slice(0, MAX_CANDIDATES);
}

async function isFile(ctx: ToolContext, path: string): Promise<boolean> {
  const r = await ctx.resolve(path, 'read');
  return r.ok && (await ctx.ws.lstat(r.path)) !== null;
}

/** Why `plan` may not run as it is (a bare value names a file an unknown option would load), or null. */
export async function bareOptionFile(ctx: ToolContext, plan: ExecPlan): Promise<string | null> {
  const argvs = plan.stages.map((s) => s.argv);
  for (const [n, argv] of argvs.entries()) {
    for (const c of candidates(argv)) {
      if (!(await isFile(ctx, c.value))) continue;
      const tried = argvs.map((a, k) => (k === n ? a.map((w, i) => (i === c.index ? c.spelled : w)) : a));
      const again = decideLiteral(tried);
      // Only a finding about this very value counts: another option may already be gated for its own file.
      if (again.rule === OPTION_FILE_RULE && again.reason.includes(JSON.stringify(`./${c.value}`))) {
        const written = argv[c.index]!.startsWith('-') ? argv[c.index]! : `${argv[c.index - 1]} ${argv[c.index]}`;
        return `${JSON.stringify(written)} names the workspace file ${JSON.stringify(c.value)}, which the command would load and run as code through an option ws_shell does not know as harmless — write it as ${JSON.stringify(c.spelled)} so the command asks a person first, or run without that option`;
      }
    }
  }
  return null;
}
