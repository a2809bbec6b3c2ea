/**
 * The project's test runners and checkers run freely — vitest, jest, mocha, playwright test,
 * node --test (see interpreters.ts), pytest, go test, cargo test, tsc --noEmit, prettier --check,
 * eslint — except for the options that make them rewrite files (snapshot updates, --fix,
 * --write), write report files, load modules that are not built in (reporters, environments,
 * configs, setup files, plugins), open a port or a browser, or run programs (go test -exec).
 * Each runner's options are a table of rules (runner-options.ts); paths they name go through the
 * jail, and what a gated call writes is listed on its finding.
 */
import { gated, never, q, USE, type Finding, type Verdict } from './decision.ts';
import type { Checker } from './checker.ts';
import { findLong, findShort, operands, scanOptions, shown } from './options.ts';
import { pathFinding, writePathFinding } from './paths.ts';
import { readRunnerOptions, runnerOptionsFinding, type OptionRule } from './runner-options.ts';
import { pathOperandsFinding } from './simple-tools.ts';
import { writing } from './writers.ts';
import type { Word } from './words.ts';

const TESTS: Verdict = { free: "runs the project's tests" };

const VITEST_REPORTERS = ['default', 'basic', 'verbose', 'dot', 'json', 'junit', 'tap', 'tap-flat', 'hanging-process', 'github-actions', 'html', 'blob', 'tree'];
const JEST_REPORTERS = ['default', 'summary', 'github-actions'];
const MOCHA_REPORTERS = ['spec', 'dot', 'nyan', 'tap', 'landing', 'list', 'progress', 'json', 'json-stream', 'min', 'doc', 'markdown', 'xunit', 'base'];
const PLAYWRIGHT_REPORTERS = ['list', 'line', 'dot', 'json', 'junit', 'html', 'blob', 'github', 'null'];
/** node --test's built-in reporters. */
export const NODE_REPORTERS = ['spec', 'tap', 'dot', 'junit', 'lcov'];

const VITEST: readonly OptionRule[] = [
  { names: ['reporter', 'reporters'], kind: 'module', builtins: VITEST_REPORTERS },
  { names: ['environment'], kind: 'module', builtins: ['node', 'jsdom', 'happy-dom', 'edge-runtime'] },
  { names: ['pool'], kind: 'module', builtins: ['threads', 'forks', 'vmThreads', 'vmForks'] },
  { names: ['config', 'setupFiles', 'globalSetup', 'workspace'], kind: 'module' },
  { names: ['root', 'dir', 'mergeReports', 'typecheck.tsconfig'], kind: 'read' },
  { names: ['outputFile', 'coverage.reportsDirectory', 'cache.dir'], kind: 'write' },
  { names: ['api', 'ui', 'open', 'browser', 'inspect', 'inspectBrk', 'standalone'], kind: 'port' },
  { names: ['update'], kind: 'snapshot' },
];
const JEST: readonly OptionRule[] = [
  { names: ['reporters'], kind: 'module', builtins: JEST_REPORTERS },
  { names: ['testEnvironment', 'env'], kind: 'module', builtins: ['node', 'jsdom'] },
  {
    names: ['config', 'setupFiles', 'setupFilesAfterEnv', 'globalSetup', 'globalTeardown', 'testRunner', 'runner', 'resolver', 'snapshotResolver', 'testSequencer', 'transform', 'preset', 'testResultsProcessor', 'watchPlugins', 'projects'],
    kind: 'module',
  },
  { names: ['rootDir', 'roots', 'modulePaths'], kind: 'read' },
  { names: ['outputFile', 'coverageDirectory', 'cacheDirectory'], kind: 'write' },
  { names: ['updateSnapshot'], kind: 'snapshot' },
];
const MOCHA: readonly OptionRule[] = [
  { names: ['reporter'], kind: 'module', builtins: MOCHA_REPORTERS },
  { names: ['ui'], kind: 'module', builtins: ['bdd', 'tdd', 'qunit', 'exports'] },
  { names: ['require', 'config', 'loader', 'import'], kind: 'module' },
  { names: ['nodeOption'], kind: 'never', why: 'passes options to node (such as --require or --inspect)' },
  { names: ['file', 'package'], kind: 'read' },
  { names: ['inspect', 'inspectBrk'], kind: 'port', why: 'opens a debugger port' },
];
const PLAYWRIGHT: readonly OptionRule[] = [
  { names: ['reporter'], kind: 'module', builtins: PLAYWRIGHT_REPORTERS },
  { names: ['config'], kind: 'module' },
  { names: ['tsconfig'], kind: 'read' },
  { names: ['output'], kind: 'write', why: 'writes test artifacts into that directory' },
  { names: ['ui', 'uiPort', 'uiHost', 'debug'], kind: 'port' },
  { names: ['updateSnapshots'], kind: 'snapshot' },
];
/** Any of the JS runners may receive the arguments of `npm test -- …`, so all their rules apply there. */
const ANY_JS_RUNNER: readonly OptionRule[] = [
  { names: ['reporter', 'reporters'], kind: 'module', builtins: [...new Set([...VITEST_REPORTERS, ...JEST_REPORTERS, ...MOCHA_REPORTERS, ...PLAYWRIGHT_REPORTERS])] },
  ...[VITEST, JEST, MOCHA, PLAYWRIGHT].flatMap((rules) => rules.filter((r) => !r.names.includes('reporter') && !r.names.includes('reporters'))),
  { names: ['junitxml', 'junit-xml', 'resultlog'], kind: 'write' },
];

const VITEST_SHORT = { c: 'config', r: 'root', t: 'testNamePattern', u: 'update', w: 'watch' };
const JEST_SHORT = { c: 'config', u: 'updateSnapshot', t: 'testNamePattern', w: 'maxWorkers', i: 'runInBand', b: 'bail', e: 'expand', o: 'onlyChanged' };
const MOCHA_SHORT = { r: 'require', R: 'reporter', u: 'ui', O: 'reporterOption', n: 'nodeOption', g: 'grep', f: 'fgrep', t: 'timeout', s: 'slow', j: 'jobs', w: 'watch', b: 'bail', c: 'colors' };
const PLAYWRIGHT_SHORT = { c: 'config', g: 'grep', j: 'workers', x: 'maxFailures', u: 'updateSnapshots' };

/** mocha's reporter options (`-O output=FILE`) can make a reporter write a file. */
function mochaReporterOptions(args: readonly Word[]): Finding | null {
  for (const o of readRunnerOptions(args, MOCHA_SHORT).filter((o) => ['reporteroption', 'reporteroptions'].includes(o.name))) {
    const files = o.values.flatMap((v) => v.text.split(',')).filter((kv) => /^output=/.test(kv)).map((kv) => kv.slice(7));
    for (const file of files) {
      const bad = writePathFinding(file, o.word.raw);
      if (bad) return bad;
    }
    return writing(gated('report-file', `mocha ${q(o.word.raw)} can make the reporter write a file`, USE.tests), files.length ? files : ['the file the reporter option names, if any']);
  }
  return null;
}

/**
 * The shared test-argument rule for arguments any JS runner may receive (`npm test -- …`): each
 * runner's module, write, read, port and snapshot options, and mocha's reporter options.
 */
export function testArgsFinding(runner: string, args: readonly Word[]): Finding | null {
  return runnerOptionsFinding(runner, readRunnerOptions(args, { c: 'config', u: 'update', r: 'require', R: 'reporter', O: 'reporterOption', n: 'nodeOption' }), ANY_JS_RUNNER) ?? mochaReporterOptions(args);
}

/** A JS runner: its subcommands that set things up are gated; its options follow its rule table. */
function jsRunner(name: string, rules: readonly OptionRule[], shortNames: Readonly<Record<string, string>>, setup: Readonly<Record<string, readonly string[]>>, extra?: (args: readonly Word[]) => Finding | null): Checker {
  return (args) => {
    const sub = args.find((w) => !w.text.startsWith('-'))?.text;
    if (sub !== undefined && Object.hasOwn(setup, sub)) {
      return writing(gated('runner-setup', `${q(`${name} ${sub}`)} sets up or changes the project`, USE.tests), setup[sub]!);
    }
    return runnerOptionsFinding(name, readRunnerOptions(args, shortNames), rules) ?? extra?.(args) ?? TESTS;
  };
}

const vitest = jsRunner('vitest', VITEST, VITEST_SHORT, { init: ['vitest config and example files in the workspace root'] });
const jest: Checker = (args) => {
  const init = args.find((w) => w.text === '--init');
  if (init) return writing(gated('runner-setup', `jest ${q(init.raw)} writes a config file`, USE.tests), ['jest.config.js (or .ts/.mjs) in the workspace root']);
  return jsRunner('jest', JEST, JEST_SHORT, {})(args, () => undefined);
};
const mocha = jsRunner('mocha', MOCHA, MOCHA_SHORT, {}, mochaReporterOptions);
const playwright: Checker = (args) => {
  const tokens = scanOptions(args, { shortValue: 'cgjx', longValue: ['config', 'grep', 'project', 'reporter', 'workers', 'shard', 'output'] });
  const sub = operands(tokens)[0]?.text;
  if (sub === undefined && (findLong(tokens, ['version']) || findShort(tokens, 'V'))) return { free: 'is a version query' };
  if (sub !== 'test') {
    return writing(gated('runner-setup', `${q(`playwright ${sub ?? ''}`.trim())} installs browsers or opens tools`, 'Run the tests with npx playwright test.'), ['browser binaries and tool output (outside the workspace, in the Playwright cache, or files the tool is told to write)']);
  }
  return runnerOptionsFinding('playwright test', readRunnerOptions(args, PLAYWRIGHT_SHORT), PLAYWRIGHT) ?? TESTS;
};

/** tsc's options that name what it writes (when it emits at all). */
const TSC_WRITES = ['outdir', 'outfile', 'declarationdir', 'tsbuildinfofile', 'generatetrace', 'generatecpuprofile'];

/** tsc (and vue-tsc): type-checks freely with --noEmit; options are case-insensitive and take one or two dashes. */
function tsc(name: string): Checker {
  return (args) => {
    const opts = args.map((w, i) => ({ w, i, key: w.text.replace(/^--?/, '').toLowerCase() })).filter((o) => o.w.text.startsWith('-'));
    const info = opts.find((o) => ['version', 'v', 'help', 'h', 'all', 'showconfig', 'listfilesonly'].includes(o.key));
    const project = opts.find((o) => ['p', 'project'].includes(o.key));
    const pf = project ? pathFinding(args[project.i + 1]?.text ?? '', args[project.i + 1]?.raw) : null;
    if (pf) return pf;
    const outputs = opts.filter((o) => TSC_WRITES.includes(o.key)).map((o) => args[o.i + 1]).filter((w): w is Word => w !== undefined);
    for (const w of outputs) {
      const bad = writePathFinding(w.text, w.raw, w);
      if (bad) return bad;
    }
    const writes = opts.find((o) => ['generatetrace', 'build', 'b', 'init', 'incremental', 'i', 'watch', 'w', 'generatecpuprofile'].includes(o.key));
    const emitted = [...outputs.map((w) => w.text), 'compiled files where tsconfig.json puts them (next to the sources by default)'];
    if (writes) return writing(gated('tsc-writes', `${name} ${q(writes.w.raw)} writes files or keeps running`, 'Type-check with npx tsc --noEmit (add -p tsconfig.json if needed).'), writes.key === 'init' ? ['tsconfig.json'] : emitted);
    if (info) return { free: 'prints compiler information' };
    if (!opts.some((o) => o.key === 'noemit')) {
      return writing(gated('tsc-writes', `${q(name)} without --noEmit writes compiled files`, 'Type-check with npx tsc --noEmit.'), emitted);
    }
    return { free: 'type-checks without writing files' };
  };
}

const PRETTIER: readonly OptionRule[] = [
  { names: ['config', 'plugin'], kind: 'module' },
  { names: ['ignorePath'], kind: 'read' },
  { names: ['cacheLocation'], kind: 'write' },
];

/** prettier prints or checks freely; --write rewrites files. */
const prettier = (args: readonly Word[]): Verdict => {
  const tokens = scanOptions(args, { longValue: ['config', 'ignore-path', 'plugin', 'parser', 'cache-location', 'log-level', 'config-precedence', 'cursor-offset', 'stdin-filepath'] });
  const files = operands(tokens).map((o) => o.word);
  const bad = pathOperandsFinding('prettier', files, true) ?? runnerOptionsFinding('prettier', readRunnerOptions(args, {}), PRETTIER);
  if (bad?.tier === 'never') return bad;
  const write = findShort(tokens, 'w') ?? findLong(tokens, ['write']);
  if (write) return writing(gated('formatter-writes', `prettier ${q(shown(write))} rewrites files`, 'Check formatting with npx prettier --check, then edit with ws_edit.'), files.map((w) => `${w.text} (every file it formats)`));
  return bad ?? { free: 'checks formatting' };
};

const ESLINT_FORMATS = ['stylish', 'compact', 'json', 'json-with-metadata', 'html', 'junit', 'checkstyle', 'tap', 'unix', 'visualstudio', 'jslint-xml'];
const ESLINT: readonly OptionRule[] = [
  { names: ['format'], kind: 'module', builtins: ESLINT_FORMATS },
  { names: ['config', 'plugin', 'rulesdir', 'parser', 'resolvePluginsRelativeTo'], kind: 'module' },
  { names: ['ignorePath'], kind: 'read' },
  { names: ['outputFile', 'cacheLocation'], kind: 'write' },
];

const eslint = (args: readonly Word[]): Verdict => {
  const tokens = scanOptions(args, { shortValue: 'cfo', longValue: ['config', 'format', 'output-file', 'ext', 'rulesdir', 'ignore-path', 'resolve-plugins-relative-to', 'cache-location', 'max-warnings', 'plugin', 'parser', 'rule', 'env', 'global'] });
  const files = operands(tokens).map((o) => o.word);
  const bad = pathOperandsFinding('eslint', files, true) ?? runnerOptionsFinding('eslint', readRunnerOptions(args, { c: 'config', f: 'format', o: 'outputFile' }), ESLINT);
  if (bad?.tier === 'never') return bad;
  const fix = findLong(tokens, ['fix', 'init']);
  if (fix) {
    const what = fix.name === 'init' ? ['eslint.config.js', 'package.json', 'node_modules/'] : files.map((w) => `${w.text} (every file it fixes)`);
    return writing(gated('linter-writes', `eslint ${q(shown(fix))} writes files`, 'Lint without --fix or -o; fix problems with ws_edit.'), what);
  }
  return bad ?? { free: 'lints without writing' };
};

const PYTEST: readonly OptionRule[] = [
  { names: ['p'], kind: 'module', builtins: ['no:*'] },
  { names: ['config-file', 'pdbcls'], kind: 'module' },
  { names: ['rootdir', 'confcutdir'], kind: 'read' },
  { names: ['basetemp'], kind: 'write', why: 'empties and writes that directory' },
  { names: ['log-file', 'junitxml', 'junit-xml', 'resultlog', 'result-log', 'report-log', 'html', 'cov-report'], kind: 'write' },
  { names: ['debug'], kind: 'write', defaultWrite: 'pytestdebug.log' },
  { names: ['pastebin'], kind: 'port', why: 'uploads the results to a paste service' },
];

/** pytest -o KEY=VALUE: cache_dir and log_file write where they point; other keys (addopts, pythonpath …) can load code. */
function pytestIniFinding(args: readonly Word[]): Finding | null {
  for (const o of readRunnerOptions(args, { o: 'override-ini' }, true).filter((o) => o.name === 'overrideini')) {
    const v = o.values[0];
    const [key = '', ...rest] = (v?.text ?? '').split('=');
    const value = rest.join('=');
    if (['cache_dir', 'log_file', 'junit_logging_file'].includes(key)) {
      const bad = writePathFinding(value, v!.raw);
      if (bad) return bad;
      return writing(gated('report-file', `pytest ${q(o.word.raw)} writes ${q(value)}`, USE.tests), [value]);
    }
    return gated('module-option', `pytest ${q(o.word.raw)} overrides an ini setting (addopts, pythonpath and plugin settings load code)`, USE.tests);
  }
  return null;
}

const pytest = (args: readonly Word[]): Verdict => {
  const tokens = scanOptions(args, { shortValue: 'kmpcorWn', longValue: ['junitxml', 'junit-xml', 'basetemp', 'rootdir', 'confcutdir', 'maxfail', 'log-file', 'config-file', 'override-ini', 'deselect', 'ignore', 'durations', 'import-mode', 'tb', 'capture', 'cov', 'cov-report', 'html', 'pastebin', 'report-log'] });
  // Test paths may carry a node id: tests/test_a.py::test_b.
  const paths = operands(tokens).map((o) => ({ ...o.word, text: o.text.split('::')[0]! }));
  const outside = paths.map((w) => pathFinding(w.text, w.raw)).find((f) => f !== null);
  if (outside) return outside;
  return runnerOptionsFinding('pytest', readRunnerOptions(args, { p: 'p', c: 'config-file', o: 'override-ini' }, true), PYTEST) ?? pytestIniFinding(args) ?? TESTS;
};

/** Go's flag package takes -name and --name alike, with =value or the next word. */
function goFlags(args: readonly Word[]): { key: string; w: Word; value: Word | undefined }[] {
  return args.flatMap((w, i) => {
    if (!w.text.startsWith('-')) return [];
    const eq = w.text.indexOf('=');
    const key = w.text.replace(/^--?/, '').split('=')[0]!;
    return [{ key, w, value: eq >= 0 ? { ...w, text: w.text.slice(eq + 1), quoted: w.quoted.slice(eq + 1) } : args[i + 1] }];
  });
}

const GO_FREE = ['test', 'run', 'vet', 'version', 'env', 'list', 'doc', 'help'];
const GO_WRITES = ['o', 'coverprofile', 'cpuprofile', 'memprofile', 'blockprofile', 'mutexprofile', 'trace', 'outputdir'];
const go = (args: readonly Word[]): Verdict => {
  const sub = args.find((w) => !w.text.startsWith('-'))?.text ?? '';
  const flags = goFlags(args);
  const runs = flags.find((f) => ['exec', 'toolexec'].includes(f.key) || (['ldflags', 'gccgoflags'].includes(f.key) && /extld/.test(f.value?.text ?? '')));
  if (runs) return never('runner-exec', `go ${sub} ${q(runs.w.raw)} runs the binaries or the linker through another program`, USE.tests);
  for (const f of flags.filter((f) => ['C', 'modfile', 'overlay', 'pgo'].includes(f.key))) {
    const out = pathFinding(f.value?.text ?? '', f.value?.raw);
    if (out) return out;
  }
  const outputs = flags.filter((f) => GO_WRITES.includes(f.key));
  for (const f of outputs) {
    const bad = f.value ? writePathFinding(f.value.text, f.value.raw, f.value) : null;
    if (bad) return bad;
  }
  const writes = flags.find((f) => [...GO_WRITES, 'c', 'w', 'u'].includes(f.key));
  if (!GO_FREE.includes(sub) || writes) {
    const what = writes ? `go ${sub} ${q(writes.w.raw)} writes files` : `${q(`go ${sub}`.trim())} builds, installs or changes modules`;
    const listed = outputs.map((f) => f.value?.text ?? '').filter(Boolean);
    return writing(gated('go-writes', what, USE.approval), listed.length ? listed : ['build output, go.mod, go.sum or the module cache (outside the workspace), as the command does']);
  }
  return sub === 'test' ? TESTS : { free: 'reads or runs workspace code' };
};

const cargo = (args: readonly Word[]): Verdict => {
  const config = args.find((w) => w.text === '--config' || w.text.startsWith('--config='));
  if (config) return never('runner-exec', `cargo ${q(config.raw)} can set a program to run`, USE.tests);
  const tokens = scanOptions(args, { shortValue: 'pjFCZ', longValue: ['manifest-path', 'target-dir', 'artifact-dir', 'out-dir', 'package', 'jobs', 'features', 'target', 'lockfile-path', 'profile', 'test', 'bin', 'example', 'bench'] });
  for (const t of tokens) {
    if (t.kind === 'operand') continue;
    const reads = (t.kind === 'long' && t.name === 'manifest-path') || (t.kind === 'short' && t.name === 'C');
    const writesTo = t.kind === 'long' && ['target-dir', 'artifact-dir', 'out-dir', 'lockfile-path'].includes(t.name);
    const f = reads ? pathFinding(t.value ?? '', t.valueRaw ?? '') : writesTo ? writePathFinding(t.value ?? '', t.valueRaw ?? '', t.valueWord ?? undefined) : null;
    if (f) return f;
    if (writesTo) return writing(gated('cargo-writes', `cargo ${q(shown(t))} writes build output there`, 'Run the tests with cargo test; a person approves other output directories.'), [t.value ?? '']);
  }
  const sub = operands(tokens)[0]?.text;
  if (sub === undefined && args.some((w) => ['--version', '-V'].includes(w.text))) return { free: 'is a version query' };
  if (sub === 'test') return TESTS;
  return writing(gated('cargo-writes', `${q(`cargo ${sub ?? ''}`.trim())} builds into target/, installs or changes the manifest`, 'Run the tests with cargo test; anything else needs a person.'), ['target/', 'Cargo.toml', 'Cargo.lock', '~/.cargo (outside the workspace) for installs']);
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
