/**
 * The project's test runners and checkers run freely — vitest, jest, mocha, playwright test,
 * node --test (see interpreters.ts), pytest, go test, cargo test, tsc --noEmit, prettier --check,
 * eslint — except for the options that make them rewrite files (snapshot updates, --fix,
 * --write), write report files, or run programs (go test -exec).
 */
import { gated, never, q, USE, type Finding, type Verdict } from './decision.ts';
import type { Checker } from './checker.ts';
import { findAll, findLong, findShort, operands, scanOptions, shown, type OptionSpec, type Token } from './options.ts';
import { optionPathFinding, pathFinding } from './paths.ts';
import { pathOperandsFinding } from './simple-tools.ts';
import type { Word } from './words.ts';

const TESTS: Verdict = { free: "runs the project's tests" };

/** Options any JS test runner reads as "rewrite snapshots" or "write a report file". */
const SNAPSHOT_LONG = ['update', 'updateSnapshot', 'update-snapshots', 'updateSnapshots', 'snapshot-update'];
const REPORT_LONG = ['outputFile', 'output-file', 'junitxml', 'junit-xml', 'resultlog'];

/**
 * The shared test-argument rule: `-u`/`--update…` rewrites snapshot files and `--outputFile`
 * writes a report, so both need a person; everything else passes to the runner.
 */
export function testArgsFinding(runner: string, tokens: readonly Token[], snapshotShort = 'u'): Finding | null {
  const outside = configFinding(tokens);
  if (outside) return outside;
  const snap = (snapshotShort ? findShort(tokens, snapshotShort) : undefined) ?? findLong(tokens, SNAPSHOT_LONG);
  if (snap) return gated('snapshot-update', `${runner} ${q(shown(snap))} rewrites snapshot files`, USE.tests);
  const report = findLong(tokens, REPORT_LONG);
  if (report) return gated('report-file', `${runner} ${q(shown(report))} writes a report file`, USE.tests);
  return null;
}

/** A runner's config file or root directory is loaded as code, so it must be inside the workspace. */
function configFinding(tokens: readonly Token[]): Finding | null {
  for (const t of findAll(tokens, 'c', ['config', 'root', 'dir', 'rootDir', 'rootdir'])) {
    const f = optionPathFinding(t);
    if (f) return f;
  }
  return null;
}

function runner(name: string, spec: OptionSpec, gatedSubcommands: readonly string[] = [], snapshotShort = 'u'): Checker {
  return (args) => {
    const tokens = scanOptions(args, spec);
    const sub = operands(tokens)[0]?.text;
    if (sub !== undefined && gatedSubcommands.includes(sub)) {
      return gated('runner-setup', `${q(`${name} ${sub}`)} sets up or changes the project`, USE.tests);
    }
    return testArgsFinding(name, tokens, snapshotShort) ?? TESTS;
  };
}

const vitest = runner('vitest', { shortValue: 'crt', longValue: ['config', 'root', 'dir', 'reporter', 'outputFile', 'testNamePattern', 'project', 'shard', 'environment', 'pool'] }, ['init']);
const jest = (args: readonly Word[]): Verdict => {
  const tokens = scanOptions(args, { shortValue: 'ctw', longValue: ['config', 'testNamePattern', 'maxWorkers', 'reporters', 'outputFile', 'rootDir', 'selectProjects'] });
  const init = findLong(tokens, ['init']);
  if (init) return gated('runner-setup', `jest ${q(shown(init))} writes a config file`, USE.tests);
  return testArgsFinding('jest', tokens) ?? TESTS;
};
const mocha = (args: readonly Word[]): Verdict => {
  const tokens = scanOptions(args, { shortValue: 'rRgfOstuj', longValue: ['require', 'reporter', 'grep', 'fgrep', 'reporter-option', 'reporter-options', 'slow', 'timeout', 'ui', 'jobs', 'config', 'spec'] });
  const opt = findShort(tokens, 'O') ?? findLong(tokens, ['reporter-option', 'reporter-options']);
  if (opt) return gated('report-file', `mocha ${q(shown(opt))} can make the reporter write a file`, USE.tests);
  return testArgsFinding('mocha', tokens, '') ?? TESTS;
};
const playwright = (args: readonly Word[]): Verdict => {
  const tokens = scanOptions(args, { shortValue: 'cgjx', longValue: ['config', 'grep', 'project', 'reporter', 'workers', 'shard', 'output'] });
  const sub = operands(tokens)[0]?.text;
  if (sub === undefined && (findLong(tokens, ['version']) || findShort(tokens, 'V'))) return { free: 'is a version query' };
  if (sub !== 'test') return gated('runner-setup', `${q(`playwright ${sub ?? ''}`.trim())} installs browsers or opens tools`, 'Run the tests with npx playwright test.');
  return testArgsFinding('playwright test', tokens) ?? TESTS;
};

/** tsc (and vue-tsc): type-checks freely with --noEmit; options are case-insensitive and take one or two dashes. */
function tsc(name: string): Checker {
  return (args) => {
    const opts = args.filter((w) => w.text.startsWith('-')).map((w) => ({ w, key: w.text.replace(/^--?/, '').toLowerCase() }));
    const info = opts.find((o) => ['version', 'v', 'help', 'h', 'all', 'showconfig', 'listfilesonly'].includes(o.key));
    const writes = opts.find((o) => ['generatetrace', 'build', 'b', 'init', 'incremental', 'i', 'watch', 'w', 'generatecpuprofile'].includes(o.key));
    if (writes) return gated('tsc-writes', `${name} ${q(writes.w.raw)} writes files or keeps running`, 'Type-check with npx tsc --noEmit (add -p tsconfig.json if needed).');
    const project = args.findIndex((w) => ['-p', '--project'].includes(w.text));
    const pf = project >= 0 ? pathFinding(args[project + 1]?.text ?? '', args[project + 1]?.raw) : null;
    if (pf) return pf;
    if (info) return { free: 'prints compiler information' };
    if (!opts.some((o) => o.key === 'noemit')) {
      return gated('tsc-writes', `${q(name)} without --noEmit writes compiled files`, 'Type-check with npx tsc --noEmit.');
    }
    return { free: 'type-checks without writing files' };
  };
}

/** prettier prints or checks freely; --write rewrites files. */
const prettier = (args: readonly Word[]): Verdict => {
  const tokens = scanOptions(args, { longValue: ['config', 'ignore-path', 'plugin', 'parser', 'cache-location', 'log-level'] });
  const write = findShort(tokens, 'w') ?? findLong(tokens, ['write']);
  if (write) return gated('formatter-writes', `prettier ${q(shown(write))} rewrites files`, 'Check formatting with npx prettier --check, then edit with ws_edit.');
  const config = configFinding(tokens);
  if (config) return config;
  return pathOperandsFinding('prettier', operands(tokens).map((o) => o.word), true) ?? { free: 'checks formatting' };
};

const eslint = (args: readonly Word[]): Verdict => {
  const tokens = scanOptions(args, { shortValue: 'cfo', longValue: ['config', 'format', 'output-file', 'ext', 'rulesdir', 'ignore-path', 'resolve-plugins-relative-to', 'cache-location', 'max-warnings'] });
  const write = findLong(tokens, ['fix', 'output-file', 'init']) ?? findShort(tokens, 'o');
  if (write) {
    return gated('linter-writes', `eslint ${q(shown(write))} writes files`, 'Lint without --fix or -o; fix problems with ws_edit.');
  }
  const config = configFinding(tokens);
  if (config) return config;
  return pathOperandsFinding('eslint', operands(tokens).map((o) => o.word), true) ?? { free: 'lints without writing' };
};

const pytest = (args: readonly Word[]): Verdict =>
  testArgsFinding('pytest', scanOptions(args, { shortValue: 'kmpc', longValue: ['junitxml', 'junit-xml', 'basetemp', 'rootdir', 'confcutdir', 'maxfail'] }), '') ?? TESTS;

/** Go's flag package takes -name and --name alike, with =value or the next word. */
function goFlags(args: readonly Word[]): { key: string; w: Word }[] {
  return args.filter((w) => w.text.startsWith('-')).map((w) => ({ key: w.text.replace(/^--?/, '').split('=')[0]!, w }));
}

const GO_FREE = ['test', 'run', 'vet', 'version', 'env', 'list', 'doc', 'help'];
const go = (args: readonly Word[]): Verdict => {
  const sub = args[0]?.text ?? '';
  const flags = goFlags(args.slice(1));
  const runs = flags.find((f) => ['exec', 'toolexec'].includes(f.key));
  if (runs) return never('runner-exec', `go ${sub} ${q(runs.w.raw)} runs the binaries through another program`, USE.tests);
  const writes = flags.find((f) => ['o', 'c', 'coverprofile', 'cpuprofile', 'memprofile', 'blockprofile', 'mutexprofile', 'trace', 'outputdir', 'w', 'u'].includes(f.key));
  if (!GO_FREE.includes(sub) || writes) {
    const what = writes ? `go ${sub} ${q(writes.w.raw)} writes files` : `${q(`go ${sub}`.trim())} builds, installs or changes modules`;
    return gated('go-writes', what, USE.approval);
  }
  return sub === 'test' ? TESTS : { free: 'reads or runs workspace code' };
};

const cargo = (args: readonly Word[]): Verdict => {
  const config = args.find((w) => w.text === '--config' || w.text.startsWith('--config='));
  if (config) return never('runner-exec', `cargo ${q(config.raw)} can set a program to run`, USE.tests);
  const sub = args.find((w) => !w.text.startsWith('-'))?.text;
  if (sub === undefined && args.some((w) => ['--version', '-V'].includes(w.text))) return { free: 'is a version query' };
  if (sub === 'test') return TESTS;
  return gated('cargo-writes', `${q(`cargo ${sub ?? ''}`.trim())} builds into target/, installs or changes the manifest`, 'Run the tests with cargo test; anything else needs a person.');
};

/** Test runners and checkers by command name (as run directly, through npx or through python -m). */
export const TEST_RUNNERS: Readonly<Record<string, Checker>> = {
  vitest,
  jest,
  mocha,
  playwright,
  tsc: tsc('tsc'),
  'vue-tsc': tsc('vue-tsc'),
  'svelte-check': () => ({ free: 'type-checks without writing files' }),
  prettier,
  eslint,
  pytest,
  'py.test': pytest,
  unittest: () => TESTS,
  go,
  cargo,
};
