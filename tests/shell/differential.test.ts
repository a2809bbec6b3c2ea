/**
 * What is checked is what runs: for every command the policy allows or gates, the plan it
 * returns (patterns expanded and input files read by the runner's own plan-run.ts) must equal
 * what real bash runs for the same text — each process's argv, stdin bytes, environment and
 * working directory, and where each stage's stdout and stderr end up (bash-stub.ts). Inputs:
 * every allow and gated command of the shell corpora and of the policy's table test, and
 * generated adversarial commands (every quoting form, escapes, globs, redirections in odd
 * orders, |&, heredocs with odd delimiters and bodies, here-strings, prefixes, unicode).
 * A disagreement fails with both sides shown; it is fixed in the policy by refusing the
 * construct, never here.
 */
import fc from 'fast-check';
import { fileURLToPath } from 'node:url';
import type { Parser } from 'web-tree-sitter';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BashBench, type Observation } from '../support/bash-stub.ts';
import { readJson } from '../support/corpus.ts';
import { useNodeWasm } from '../support/node-wasm.ts';
import { tableCommands } from '../support/table-rows.ts';
import { Engine } from '../../src/engine/engine.ts';
import type { ToolContext } from '../../src/engine/context.ts';
import { decideShell } from '../../src/engine/shell/index.ts';
import type { ShellPlan } from '../../src/engine/shell/plan-types.ts';
import { SIMPLE_TOOLS } from '../../src/engine/shell/simple-tools.ts';
import { resolvePlan } from '../../src/engine/tools/plan-run.ts';
import type { ExecPlan, ExecStage } from '../../src/engine/workspace.ts';
import { parserFor } from '../../src/engine/treesitter/loader.ts';
import { NodeWorkspace } from '../../src/workspace/node/node-workspace.ts';

interface ShellCase {
  cmd: string;
  expect: 'allow' | 'refuse';
  tier_hint: 'free' | 'gated' | 'never';
}

/** Programs the generator below names. */
const GENERATED_NAMES = ['echo', 'printf', 'cat', 'wc', 'grep', 'ls', 'head', 'tail', 'nl', 'rev', 'sort'];

let parser: Parser;
let bench: BashBench;
let ctx: ToolContext;

beforeAll(async () => {
  useNodeWasm();
  parser = await parserFor('bash');
  bench = new BashBench([...Object.keys(SIMPLE_TOOLS), ...GENERATED_NAMES]);
  ctx = new Engine({ workspace: await NodeWorkspace.open(bench.ws), tools: [] }).ctx;
});
afterAll(() => bench?.dispose());

type Outcome =
  | { readonly kind: 'refused' }
  | { readonly kind: 'skipped'; readonly why: string }
  /** The runner refuses the plan when it resolves it (a pattern into .git/, a name the jail refuses): nothing runs. */
  | { readonly kind: 'runner-refused'; readonly why: string }
  | { readonly kind: 'same' }
  | {
      readonly kind: 'differs';
      readonly cmd: string;
      readonly decision: string;
      readonly plan: ShellPlan | undefined;
      readonly planned: Observation | string;
      readonly bash: Observation;
    };

function baseName(p: string): string {
  return p.slice(p.lastIndexOf('/') + 1);
}

/**
 * The text bash is given. A command named by an absolute path (/usr/bin/rg) would run the real
 * program, so the test points that one word at the stub of the same name; the comparison then
 * checks the argv[0] by name. The path must appear exactly once per stage that runs it.
 */
function bashText(cmd: string, plan: ShellPlan): string | null {
  let text = cmd;
  for (const path of new Set(plan.stages.map((s) => s.args[0]!.text).filter((t) => t.startsWith('/')))) {
    const re = new RegExp(`(?<=^|[\\s|])${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=[\\s|]|$)`, 'g');
    const stages = plan.stages.filter((s) => s.args[0]!.text === path).length;
    if ((text.match(re) ?? []).length !== stages) return null;
    text = text.replace(re, `${bench.bin}/${baseName(path)}`);
  }
  return text;
}

/** Runs one command both ways. */
async function compare(cmd: string): Promise<Outcome> {
  const d = decideShell(parser, cmd);
  if (d.decision === 'refuse') return { kind: 'refused' };
  const differs = (planned: Observation | string, bash: Observation): Outcome => ({
    kind: 'differs',
    cmd,
    decision: d.decision,
    plan: d.plan,
    planned,
    bash,
  });
  const plan = d.plan;
  if (plan === undefined) return differs(`the policy answered ${d.decision} without a plan`, bench.runBash(cmd));
  for (const s of plan.stages) {
    const name = s.args[0]!.text;
    if (/^(?:\.\/)?node_modules\/\.bin\/[^/]+$/.test(name)) bench.addProjectBin(baseName(name));
    else bench.addStub(baseName(name));
    // Input files the command names are created, so both sides read the same bytes.
    if (s.stdin.kind === 'file' && !/(^|\/)\.\.(\/|$)/.test(s.stdin.path)) {
      try {
        bench.readFile(s.stdin.path);
      } catch {
        bench.writeFile(s.stdin.path, `input of ${s.stdin.path}\n`);
      }
    }
  }
  const text = bashText(cmd, plan);
  if (text === null)
    return {
      kind: 'skipped',
      why: `${JSON.stringify(cmd)}: an absolute command path also appears elsewhere in the text`,
    };
  const resolved = await resolvePlan(ctx, plan);
  if (!resolved.ok) return { kind: 'runner-refused', why: resolved.why };
  const bash = bench.runBash(text);
  const planned = bench.expectedRun(resolved.plan);
  const same = !bash.timedOut && JSON.stringify(planned) === JSON.stringify({ calls: bash.calls, output: bash.output });
  return same ? { kind: 'same' } : differs(planned, bash);
}

/** A disagreement as a reader wants it: the command, what the plan runs, what bash ran. */
function shown(o: Outcome): unknown {
  if (o.kind !== 'differs') return o;
  return { cmd: o.cmd, decision: o.decision, plan: o.plan, planned: o.planned, bash: o.bash };
}

describe('the bench', () => {
  it('tells a plan that differs from bash in argv, stdin or routing from one that does not', async () => {
    const cmd = 'echo a 2>&1 | wc -l <<<x';
    const plan = decideShell(parser, cmd).plan!;
    const resolved = await resolvePlan(ctx, plan);
    if (!resolved.ok) throw new Error(resolved.why);
    const bash = bench.runBash(cmd);
    const same = (p: ExecPlan): boolean =>
      JSON.stringify(bench.expectedRun(p)) === JSON.stringify({ calls: bash.calls, output: bash.output });
    const [first, second] = resolved.plan.stages as [ExecStage, ExecStage];
    expect(same(resolved.plan)).toBe(true);
    expect(same({ stages: [{ ...first, argv: ['echo', 'b'] }, second] })).toBe(false);
    expect(same({ stages: [first, { ...second, stdin: 'pipe' }] })).toBe(false);
    expect(same({ stages: [{ ...first, stderr: 'output' }, second] })).toBe(false);
    expect(same({ stages: [first, { ...second, env: { CI: '1' } }] })).toBe(false);
  });
});

describe('the plan is what bash runs', () => {
  it('for every allow and gated command of the corpora and the policy table', async () => {
    const corpus = [...readJson<ShellCase[]>('shell-dev.json'), ...readJson<ShellCase[]>('shell-peers.json')]
      .filter((c) => c.expect === 'allow' || c.tier_hint === 'gated')
      .map((c) => c.cmd);
    const table = tableCommands(fileURLToPath(new URL('../../src/engine/shell/policy.test.ts', import.meta.url)), [
      'allow',
      'gated',
    ]);
    const cmds = [...new Set([...corpus, ...table])];
    const outcomes: Outcome[] = [];
    for (const cmd of cmds) outcomes.push(await compare(cmd));
    const count = (k: Outcome['kind']): number => outcomes.filter((o) => o.kind === k).length;
    console.log(
      `differential (corpus ${corpus.length} + table ${table.length}, ${cmds.length} distinct): compared ${count('same') + count('differs')}, ` +
        `differ ${count('differs')}, refused by the policy ${count('refused')}, refused by the runner ${count('runner-refused')}, skipped ${count('skipped')}`,
    );
    for (const o of outcomes) if (o.kind === 'skipped') console.log(`skipped ${o.why}`);
    expect(outcomes.filter((o) => o.kind === 'differs').map(shown)).toEqual([]);
    expect(count('same')).toBeGreaterThan(200);
    // Hundreds of bash runs: a limit against a hang, not a speed check.
  }, 300_000);
});

// ---------------------------------------------------------------------------------------------
// The generator: commands built from the constructs where two readers of bash disagree most.

const pick = <T>(...xs: T[]): fc.Arbitrary<T> => fc.constantFrom(...xs);

/** Unquoted literal text, including digits that can read as a descriptor before a redirection. */
const plain = fc
  .array(pick('a', 'b', 'x', '.', '-', '_', '/', '=', '+', ',', ':', '@', '%', '1', '2', 'é', '中'), {
    minLength: 1,
    maxLength: 4,
  })
  .map((cs) => cs.join(''));

const singleQuoted = fc
  .array(
    pick(
      'a',
      ' ',
      '"',
      '$',
      '\\',
      '*',
      '?',
      '[',
      ']',
      '\n',
      'é',
      '😀',
      '`',
      '|',
      ';',
      '&',
      '<',
      '>',
      '(',
      ')',
      '{',
      '}',
      '~',
      '#',
      '\t',
      '\r',
    ),
    { maxLength: 5 },
  )
  .map((cs) => `'${cs.join('')}'`);

const doubleQuoted = fc
  .array(
    pick(
      'a',
      ' ',
      "'",
      '\\\\',
      '\\"',
      '\\$',
      '\\`',
      '\\a',
      '\\n',
      '\\\n',
      '\n',
      '*',
      '?',
      '[a]',
      'é',
      '$',
      '$ ',
      '$-',
      '$?',
      '$_',
      '$1',
      '$@',
      '~',
      '{a,b}',
      '#',
      '\\',
    ),
    { maxLength: 4 },
  )
  .map((cs) => `"${cs.join('')}"`);

const ANSI_ESCAPES = [
  '\\n',
  '\\t',
  '\\a',
  '\\b',
  '\\e',
  '\\E',
  '\\f',
  '\\v',
  '\\r',
  '\\\\',
  "\\'",
  '\\"',
  '\\?',
  '\\x41',
  '\\x7f',
  '\\x7',
  '\\xff',
  '\\x80',
  '\\xg',
  '\\x',
  '\\u00e9',
  '\\u41',
  '\\u4e2d',
  '\\u',
  '\\uzz',
  '\\U0001F600',
  '\\U41',
  '\\U110000',
  '\\cA',
  '\\ca',
  '\\c?',
  '\\c[',
  '\\c@',
  '\\c\\\\',
  '\\c1',
  '\\c',
  '\\0',
  '\\01',
  '\\101',
  '\\141',
  '\\400',
  '\\777',
  '\\8',
  '\\z',
  '\\$',
  '\\`',
];
const ansiC = fc
  .array(fc.oneof(pick(...ANSI_ESCAPES), pick('a', ' ', '"', '$', '*', 'é', '`')), { maxLength: 4 })
  .map((cs) => `$'${cs.join('')}'`);
/** Ending in an escaped backslash, or holding a lone one: where a reader that takes `\'` for a quote runs on to the next `'`. */
const ansiCBackslash = fc
  .tuple(ansiC, pick("\\\\'", "\\'", "\\\\' '", " \\'"))
  .map(([s, tail]) => `${s.slice(0, -1)}${tail}`);

const localeString = plain.map((p) => `$"${p}"`);

const escaped = pick(
  'a',
  '*',
  '?',
  '[',
  ' ',
  '\\',
  "'",
  '"',
  '$',
  '`',
  '|',
  ';',
  '&',
  '<',
  '>',
  '~',
  '{',
  '#',
  'é',
  '\n',
  'n',
  't',
  '-',
).map((c) => `\\${c}`);

const glob = pick(
  '*',
  '?',
  '[ab]',
  '[!a]',
  '[^a]',
  '[a-c]',
  '[]a]',
  '[',
  ']',
  '*.txt',
  'src/*',
  's?c/*.ts',
  '.git*',
  '[[:alpha:]]*',
  '*[.]txt',
  'a*',
  '?b',
  '*/',
  'src/.*',
  'src/*.t[s]',
  '\\*',
  '"*"*',
  "'a'*",
  'a"*"',
  '**',
  '[a"b"]*',
  '"["a]*',
  '[\\]]',
  '[a-]*',
  '[]-a]*',
  '[[:digit:]]',
  '[[:nope:]]*',
  '[^]]*',
  '[*]',
  '*\\*',
  '\\\\*',
  's*/*',
  '*/*.ts',
  '.*.t?t',
);

const fragment = fc.oneof(
  { arbitrary: plain, weight: 4 },
  { arbitrary: singleQuoted, weight: 2 },
  { arbitrary: doubleQuoted, weight: 2 },
  { arbitrary: ansiC, weight: 2 },
  { arbitrary: ansiCBackslash, weight: 1 },
  { arbitrary: localeString, weight: 1 },
  { arbitrary: escaped, weight: 2 },
  { arbitrary: glob, weight: 2 },
);
const word = fc.array(fragment, { minLength: 1, maxLength: 3 }).map((fs) => fs.join(''));

const redirect = pick(
  '2>&1',
  '>/dev/null',
  '2>/dev/null',
  '>&2',
  '1>&2',
  '&>/dev/null',
  '>/dev/stderr',
  '2>/dev/stdout',
  '2> /dev/null',
  '> /dev/null',
  '<a.txt',
  '< "a b.txt"',
  '</dev/null',
  '<<<word',
  "<<<'a b'",
  '<<<"x y"',
  "<<<$'a\\tb'",
  '<<< a\\ b',
  '3>&1',
  '>&-',
  '0<a.txt',
  '<&0',
  '>&1',
  '2>&2',
  '1>/dev/null',
  "<<<''",
  '<<<*.txt',
  '<<<a\\ b',
  '<<<[ab]*',
  '2>& 1',
  '>& 2',
  '2>&1-',
  '<&-',
  '&>>/dev/null',
  '>>/dev/null',
  '>|/dev/null',
  '2>>/dev/stderr',
  '> /dev/stdout',
  '>/dev/nul?',
);

const assignment = pick(
  'CI=1',
  'TZ=UTC',
  "LANG='x y'",
  'NO_COLOR=',
  'DEBUG="a b"',
  "FORCE_COLOR=$'1'",
  'COLUMNS=80',
  'CI=a\\ b',
  'CI+=1',
  'TZ=*',
  'CI=[ab]*',
  'CI=a=b',
  'TZ==',
  'CI="$x"',
  'CI=\\$x',
);

/** Separators between the parts of a stage: usually a space, sometimes nothing or a line continuation. */
const gap = fc.oneof(
  { arbitrary: fc.constant(' '), weight: 6 },
  { arbitrary: fc.constant(''), weight: 1 },
  { arbitrary: fc.constant(' \\\n'), weight: 1 },
  { arbitrary: fc.constant('\t'), weight: 1 },
);

const stage = fc
  .tuple(
    fc.oneof(
      { arbitrary: fc.constant([]), weight: 4 },
      {
        arbitrary: fc.array(fc.oneof({ arbitrary: assignment, weight: 2 }, { arbitrary: redirect, weight: 1 }), {
          minLength: 1,
          maxLength: 3,
        }),
        weight: 2,
      },
    ),
    fc.oneof(
      { arbitrary: pick('echo', 'printf', 'cat', 'wc', 'grep', 'ls', 'head', 'nl', 'rev'), weight: 5 },
      { arbitrary: pick('tail', 'sort'), weight: 1 },
    ),
    fc.array(fc.tuple(fc.oneof({ arbitrary: word, weight: 3 }, { arbitrary: redirect, weight: 1 }), gap), {
      maxLength: 3,
    }),
  )
  .map(
    ([prefix, name, parts]) =>
      `${prefix.map((e) => `${e} `).join('')}${name}${parts.map(([p, g]) => `${g}${p}`).join('')}`,
  );

/** A heredoc: the operator and raw delimiter written on the command line, and its body with the terminating line. */
const HEREDOC_DELIMITERS: readonly (readonly [raw: string, word: string])[] = [
  ['EOF', 'EOF'],
  ["'EOF'", 'EOF'],
  ['"EOF"', 'EOF'],
  ['E"O"F', 'EOF'],
  ["E'O'F", 'EOF'],
  ['\\EOF', 'EOF'],
  ["'E O'", 'E O'],
  ['true', 'true'],
  ['-x', '-x'],
  ["$'EOF'", 'EOF'],
  ['"EOF;"', 'EOF;'],
  ["'EOF)'", 'EOF)'],
  ['_1', '_1'],
  ['E\\OF', 'EOF'],
  ["''", ''],
];
const bodyLine = (delim: string): fc.Arbitrary<string> =>
  pick(
    'hello',
    'a b',
    '$HOME',
    '`x`',
    'a\\',
    '\\$x',
    'echo pwned',
    'tab\tx',
    '\thello',
    '',
    'x $ y',
    '\\',
    'é 中',
    '$(echo x)',
    `${delim} `,
    ` ${delim}`,
    `\t${delim}`,
    `${delim}|cat`,
    `${delim};`,
    `${delim})`,
    `${delim}\\`,
    `'${delim}'`,
    `"${delim}"`,
    `${delim}x`,
  );
const heredoc = fc.tuple(pick('<<', '<<-', '<< ', '<<- '), pick(...HEREDOC_DELIMITERS)).chain(([op, [raw, delim]]) =>
  fc
    .tuple(
      fc.array(bodyLine(delim), { maxLength: 3 }),
      fc.oneof(
        { arbitrary: fc.constant(delim), weight: 4 },
        { arbitrary: pick(`\t${delim}`, `${delim} `, `${delim}|cat`, `${delim};`, raw), weight: 1 },
      ),
    )
    .chain(([lines, end]) =>
      fc.option(fc.tuple(gap, fc.oneof(redirect, word)), { freq: 2, nil: undefined }).map((after) => ({
        op: `${op}${raw}${after ? after.join('') : ''}`,
        body: [...lines, end].map((l) => `${l}\n`).join(''),
      })),
    ),
);

const PIPES = [' | ', '|', ' |& ', '|&', ' |\n', ' | \\\n'];
const trailer = fc.oneof(
  { arbitrary: fc.constant(''), weight: 6 },
  { arbitrary: pick('\n', '\necho pwned', '\n\n', ' ', '\nEOF', '\n# note', ';', ' ;', '; '), weight: 1 },
);

/** A pipeline of one to three stages. */
const pipeline = fc
  .array(fc.tuple(stage, pick(...PIPES)), { minLength: 1, maxLength: 3 })
  .map((stages) => ({ texts: stages.map(([s]) => s), pipes: stages.map(([, p]) => p) }));

const joinStages = (texts: readonly string[], pipes: readonly string[]): string =>
  texts.map((t, i) => (i === 0 ? t : `${pipes[i - 1]}${t}`)).join('');

/** Commands without a heredoc. */
const plainCommand = fc.tuple(pipeline, trailer).map(([p, end]) => `${joinStages(p.texts, p.pipes)}${end}`);

/** Commands with one heredoc (sometimes two), the bodies after the command line. */
const heredocCommand = fc
  .tuple(pipeline, fc.array(fc.tuple(heredoc, fc.nat()), { minLength: 1, maxLength: 2 }), trailer)
  .map(([p, docs, end]) => {
    const texts = [...p.texts];
    for (const [d, at] of docs) texts[at % texts.length] += ` ${d.op}`;
    return `${joinStages(texts, p.pipes)}\n${docs.map(([d]) => d.body).join('')}${end.replace(/^\n/, '')}`;
  });

const generated = fc.oneof(plainCommand, heredocCommand);

describe('the plan is what bash runs, for generated adversarial commands', () => {
  // A fixed seed keeps CI reproducible; SLM_DIFF_SEED=random (or a number) explores other commands.
  const seedEnv = process.env.SLM_DIFF_SEED;
  const seed = seedEnv === 'random' ? Math.floor(Math.random() * 2 ** 31) : Number(seedEnv ?? 20261201);

  it('agrees with bash on every generated command the policy allows or gates', async () => {
    console.log(`differential (generated): seed ${seed}`);
    let compared = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(generated, async (cmd) => {
        const o = await compare(cmd);
        if (o.kind === 'refused') refused++;
        if (o.kind === 'same') compared++;
        if (o.kind === 'differs')
          throw new Error(`bash disagrees with the plan:\n${JSON.stringify(shown(o), null, 1)}`);
      }),
      { numRuns: 500, seed },
    );
    console.log(`differential (generated): compared ${compared}, refused by the policy ${refused}`);
    expect(compared).toBeGreaterThan(40);
  }, 300_000);
});
