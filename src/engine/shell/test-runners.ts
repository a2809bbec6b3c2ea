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
import { unknownOptionFinding, type KnownOptions } from './unknown-options.ts';
import { warningFilterFinding } from './python-warnings.ts';
import { writing } from './writers.ts';
import type { Word } from './words.ts';

const TESTS: Verdict = { free: "runs the project's tests" };

const VITEST_REPORTERS = [
  'default',
  'basic',
  'verbose',
  'dot',
  'json',
  'junit',
  'tap',
  'tap-flat',
  'hanging-process',
  'github-actions',
  'html',
  'blob',
  'tree',
];
const JEST_REPORTERS = ['default', 'summary', 'github-actions'];
const MOCHA_REPORTERS = [
  'spec',
  'dot',
  'nyan',
  'tap',
  'landing',
  'list',
  'progress',
  'json',
  'json-stream',
  'min',
  'doc',
  'markdown',
  'xunit',
  'base',
];
const PLAYWRIGHT_REPORTERS = ['list', 'line', 'dot', 'json', 'junit', 'html', 'blob', 'github', 'null'];
/** istanbul's report formats, which vitest's and jest's coverage reporters name. */
const COVERAGE_REPORTERS = [
  'text',
  'text-summary',
  'text-lcov',
  'html',
  'html-spa',
  'lcov',
  'lcovonly',
  'json',
  'json-summary',
  'clover',
  'cobertura',
  'teamcity',
  'none',
];
/** node --test's built-in reporters. */
export const NODE_REPORTERS = ['spec', 'tap', 'dot', 'junit', 'lcov'];

const VITEST: readonly OptionRule[] = [
  { names: ['reporter', 'reporters'], kind: 'module', builtins: VITEST_REPORTERS },
  { names: ['environment'], kind: 'module', builtins: ['node', 'jsdom', 'happy-dom', 'edge-runtime'] },
  { names: ['pool'], kind: 'module', builtins: ['threads', 'forks', 'vmThreads', 'vmForks'] },
  { names: ['config', 'setupFiles', 'globalSetup', 'workspace'], kind: 'module' },
  { names: ['root', 'dir', 'mergeReports', 'typecheck.tsconfig'], kind: 'read' },
  { names: ['coverage.reporter'], kind: 'module', builtins: COVERAGE_REPORTERS },
  { names: ['outputFile', 'coverage.reportsDirectory', 'cache.dir', 'attachmentsDir'], kind: 'write' },
  { names: ['api', 'ui', 'open', 'browser', 'inspect', 'inspectBrk', 'standalone'], kind: 'port' },
  { names: ['execArgv', 'poolOptions'], kind: 'never', why: 'passes options to node (such as --require or --inspect)' },
  { names: ['update'], kind: 'snapshot' },
];
const JEST: readonly OptionRule[] = [
  { names: ['reporters'], kind: 'module', builtins: JEST_REPORTERS },
  { names: ['testEnvironment', 'env'], kind: 'module', builtins: ['node', 'jsdom'] },
  {
    names: [
      'config',
      'setupFiles',
      'setupFilesAfterEnv',
      'globalSetup',
      'globalTeardown',
      'testRunner',
      'runner',
      'resolver',
      'snapshotResolver',
      'testSequencer',
      'transform',
      'preset',
      'testResultsProcessor',
      'watchPlugins',
      'projects',
    ],
    kind: 'module',
  },
  { names: ['coverageReporters'], kind: 'module', builtins: COVERAGE_REPORTERS },
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
/**
 * Each runner's options that load nothing (flags, and values that are names, numbers, patterns or
 * test ids); any other option whose value looks like a file is gated (unknown-options.ts).
 */
const VITEST_KNOWN: KnownOptions = {
  long: [
    'run',
    'watch',
    'globals',
    'dom',
    'isolate',
    'passWithNoTests',
    'allowOnly',
    'silent',
    'hideSkippedTests',
    'changed',
    'related',
    'mode',
    'project',
    'exclude',
    'shard',
    'testNamePattern',
    'bail',
    'retry',
    'testTimeout',
    'hookTimeout',
    'teardownTimeout',
    'slowTestThreshold',
    'maxWorkers',
    'minWorkers',
    'maxConcurrency',
    'fileParallelism',
    'coverage',
    'coverage.enabled',
    'coverage.all',
    'coverage.include',
    'coverage.exclude',
    'coverage.extension',
    'coverage.clean',
    'coverage.cleanOnRerun',
    'coverage.provider',
    'coverage.reportOnFailure',
    'coverage.allowExternal',
    'coverage.skipFull',
    'coverage.ignoreEmptyLines',
    'coverage.excludeAfterRemap',
    'coverage.processingConcurrency',
    'coverage.thresholds.*',
    'coverage.watermarks.*',
    'typecheck',
    'typecheck.enabled',
    'typecheck.only',
    'typecheck.include',
    'typecheck.ignoreSourceErrors',
    'typecheck.allowJs',
    'typecheck.spawnTimeout',
    'sequence.shuffle',
    'sequence.shuffle.*',
    'sequence.concurrent',
    'sequence.seed',
    'sequence.hooks',
    'sequence.setupFiles',
    'clearScreen',
    'logHeapUsage',
    'expandSnapshotDiff',
    'disableConsoleIntercept',
    'printConsoleTrace',
    'includeTaskLocation',
    'dangerouslyIgnoreUnhandledErrors',
    'segfaultRetry',
    'color',
    'help',
    'version',
    'json',
    'filesOnly',
    'cache',
    'clearCache',
    'tags',
    'listTags',
    'strictTags',
  ],
  flags: 'uwhv',
  values: 'crt',
};
const JEST_KNOWN: KnownOptions = {
  long: [
    'all',
    'bail',
    'cache',
    'changedFilesWithAncestor',
    'changedSince',
    'ci',
    'clearCache',
    'clearMocks',
    'collectCoverage',
    'coverage',
    'collectCoverageFrom',
    'color',
    'colors',
    'coveragePathIgnorePatterns',
    'coverageProvider',
    'coverageThreshold',
    'debug',
    'detectOpenHandles',
    'errorOnDeprecated',
    'expand',
    'findRelatedTests',
    'forceExit',
    'help',
    'injectGlobals',
    'json',
    'lastCommit',
    'listTests',
    'logHeapUsage',
    'maxConcurrency',
    'maxWorkers',
    'moduleDirectories',
    'moduleFileExtensions',
    'modulePathIgnorePatterns',
    'noStackTrace',
    'notify',
    'notifyMode',
    'onlyChanged',
    'onlyFailures',
    'openHandlesTimeout',
    'passWithNoTests',
    'randomize',
    'resetMocks',
    'resetModules',
    'restoreMocks',
    'runInBand',
    'runTestsByPath',
    'seed',
    'selectProjects',
    'ignoreProjects',
    'shard',
    'showConfig',
    'showSeed',
    'silent',
    'testLocationInResults',
    'testMatch',
    'testNamePattern',
    'testPathIgnorePatterns',
    'testPathPattern',
    'testPathPatterns',
    'testRegex',
    'testTimeout',
    'testFailureExitCode',
    'useStderr',
    'verbose',
    'version',
    'watch',
    'watchAll',
    'watchman',
    'watchPathIgnorePatterns',
    'workerIdleMemoryLimit',
    'workerThreads',
    'waitForUnhandledRejections',
  ],
  flags: 'iebfouhv',
  values: 'ctw',
};
const MOCHA_KNOWN: KnownOptions = {
  long: [
    'allowUncaught',
    'asyncOnly',
    'bail',
    'checkLeaks',
    'color',
    'colors',
    'delay',
    'diff',
    'dryRun',
    'exit',
    'extension',
    'failZero',
    'fgrep',
    'forbidOnly',
    'forbidPending',
    'fullTrace',
    'global',
    'globals',
    'grep',
    'growl',
    'inlineDiffs',
    'invert',
    'jobs',
    'listReporters',
    'listInterfaces',
    'parallel',
    'recursive',
    'retries',
    'slow',
    'sort',
    'spec',
    'timeout',
    'timeouts',
    'watch',
    'watchFiles',
    'watchIgnore',
    'ignore',
    'exclude',
    'version',
    'help',
    'enableSourceMaps',
    'reporterOption',
    'reporterOptions',
  ],
  flags: 'bcwphVAiS',
  values: 'rRuOngftsj',
};
const PLAYWRIGHT_KNOWN: KnownOptions = {
  long: [
    'browser',
    'forbidOnly',
    'fullyParallel',
    'globalTimeout',
    'grep',
    'grepInvert',
    'headed',
    'ignoreSnapshots',
    'lastFailed',
    'list',
    'maxFailures',
    'deps',
    'onlyChanged',
    'passWithNoTests',
    'project',
    'quiet',
    'repeatEach',
    'retries',
    'shard',
    'timeout',
    'trace',
    'updateSourceMethod',
    'workers',
    'help',
    'version',
    'failOnFlakyTests',
  ],
  flags: 'xuhqV',
  values: 'cgj',
};
/**
 * Options whose value is a file some JS runner loads as code, and which no rule table judges:
 * left out of every table (mocha's `--diff` is a flag, vitest's names a module), so `npm test --
 * --diff ./d.js` is gated whichever runner the script starts.
 */
const LOADS_A_FILE = [
  'runner',
  'diff',
  'sequence.sequencer',
  'typecheck.checker',
  'coverage.customProviderModule',
  'filter',
  'prettierPath',
  'snapshotSerializers',
];
/** What `npm test -- …` may pass: whatever any JS runner knows, except what another one loads. */
const ANY_JS_KNOWN: KnownOptions = {
  long: [VITEST_KNOWN, JEST_KNOWN, MOCHA_KNOWN, PLAYWRIGHT_KNOWN]
    .flatMap((k) => k.long)
    .filter((n) => !LOADS_A_FILE.includes(n)),
  flags: [
    ...new Set([VITEST_KNOWN, JEST_KNOWN, MOCHA_KNOWN, PLAYWRIGHT_KNOWN].flatMap((k) => [...(k.flags ?? '')])),
  ].join(''),
  values: [
    ...new Set([VITEST_KNOWN, JEST_KNOWN, MOCHA_KNOWN, PLAYWRIGHT_KNOWN].flatMap((k) => [...(k.values ?? '')])),
  ].join(''),
};

/** The long names a rule table judges, which the unknown-option rule therefore leaves to it. */
function judged(rules: readonly OptionRule[]): string[] {
  return rules.flatMap((r) => r.names);
}

/** Any of the JS runners may receive the arguments of `npm test -- …`, so all their rules apply there. */
const ANY_JS_RUNNER: readonly OptionRule[] = [
  {
    names: ['reporter', 'reporters'],
    kind: 'module',
    builtins: [...new Set([...VITEST_REPORTERS, ...JEST_REPORTERS, ...MOCHA_REPORTERS, ...PLAYWRIGHT_REPORTERS])],
  },
  ...[VITEST, JEST, MOCHA, PLAYWRIGHT].flatMap((rules) =>
    rules.filter((r) => !r.names.includes('reporter') && !r.names.includes('reporters')),
  ),
  { names: ['junitxml', 'junit-xml', 'resultlog'], kind: 'write' },
];

const VITEST_SHORT = { c: 'config', r: 'root', t: 'testNamePattern', u: 'update', w: 'watch' };
const JEST_SHORT = {
  c: 'config',
  u: 'updateSnapshot',
  t: 'testNamePattern',
  w: 'maxWorkers',
  i: 'runInBand',
  b: 'bail',
  e: 'expand',
  o: 'onlyChanged',
};
const MOCHA_SHORT = {
  r: 'require',
  R: 'reporter',
  u: 'ui',
  O: 'reporterOption',
  n: 'nodeOption',
  g: 'grep',
  f: 'fgrep',
  t: 'timeout',
  s: 'slow',
  j: 'jobs',
  w: 'watch',
  b: 'bail',
  c: 'colors',
};
const PLAYWRIGHT_SHORT = { c: 'config', g: 'grep', j: 'workers', x: 'maxFailures', u: 'updateSnapshots' };

/** mocha's reporter options (`-O output=FILE`) can make a reporter write a file. */
function mochaReporterOptions(args: readonly Word[]): Finding | null {
  for (const o of readRunnerOptions(args, MOCHA_SHORT).filter((o) =>
    ['reporteroption', 'reporteroptions'].includes(o.name),
  )) {
    const files = o.values
      .flatMap((v) => v.text.split(','))
      .filter((kv) => /^output=/.test(kv))
      .map((kv) => kv.slice(7));
    for (const file of files) {
      const bad = writePathFinding(file, o.word.raw);
      if (bad) return bad;
    }
    return writing(
      gated('report-file', `mocha ${q(o.word.raw)} can make the reporter write a file`, USE.tests),
      files.length ? files : ['the file the reporter option names, if any'],
    );
  }
  return null;
}

/**
 * The shared test-argument rule for arguments any JS runner may receive (`npm test -- …`): each
 * runner's module, write, read, port and snapshot options, and mocha's reporter options.
 */
export function testArgsFinding(runner: string, args: readonly Word[]): Finding | null {
  return (
    runnerOptionsFinding(
      runner,
      readRunnerOptions(args, {
        c: 'config',
        u: 'update',
        r: 'require',
        R: 'reporter',
        O: 'reporterOption',
        n: 'nodeOption',
      }),
      ANY_JS_RUNNER,
    ) ??
    mochaReporterOptions(args) ??
    unknownOptionFinding(runner, args, ANY_JS_KNOWN, judged(ANY_JS_RUNNER))
  );
}

/** A JS runner: its subcommands that set things up are gated; its options follow its rule table. */
function jsRunner(
  name: string,
  rules: readonly OptionRule[],
  shortNames: Readonly<Record<string, string>>,
  known: KnownOptions,
  setup: Readonly<Record<string, readonly string[]>>,
  extra?: (args: readonly Word[]) => Finding | null,
): Checker {
  return (args) => {
    const sub = args.find((w) => !w.text.startsWith('-'))?.text;
    if (sub !== undefined && Object.hasOwn(setup, sub)) {
      return writing(
        gated('runner-setup', `${q(`${name} ${sub}`)} sets up or changes the project`, USE.tests),
        setup[sub]!,
      );
    }
    return (
      runnerOptionsFinding(name, readRunnerOptions(args, shortNames), rules) ??
      extra?.(args) ??
      unknownOptionFinding(name, args, known, judged(rules)) ??
      TESTS
    );
  };
}

const vitest = jsRunner('vitest', VITEST, VITEST_SHORT, VITEST_KNOWN, {
  init: ['vitest config and example files in the workspace root'],
});
const jest: Checker = (args) => {
  const init = args.find((w) => w.text === '--init');
  if (init)
    return writing(gated('runner-setup', `jest ${q(init.raw)} writes a config file`, USE.tests), [
      'jest.config.js (or .ts/.mjs) in the workspace root',
    ]);
  return jsRunner('jest', JEST, JEST_SHORT, JEST_KNOWN, {})(args, () => undefined);
};
const mocha = jsRunner('mocha', MOCHA, MOCHA_SHORT, MOCHA_KNOWN, {}, mochaReporterOptions);
const playwright: Checker = (args) => {
  const tokens = scanOptions(args, {
    shortValue: 'cgjx',
    longValue: ['config', 'grep', 'project', 'reporter', 'workers', 'shard', 'output'],
  });
  const sub = operands(tokens)[0]?.text;
  if (sub === undefined && (findLong(tokens, ['version']) || findShort(tokens, 'V')))
    return { free: 'is a version query' };
  if (sub !== 'test') {
    return writing(
      gated(
        'runner-setup',
        `${q(`playwright ${sub ?? ''}`.trim())} installs browsers or opens tools`,
        'Run the tests with npx playwright test.',
      ),
      [
        'browser binaries and tool output (outside the workspace, in the Playwright cache, or files the tool is told to write)',
      ],
    );
  }
  return (
    runnerOptionsFinding('playwright test', readRunnerOptions(args, PLAYWRIGHT_SHORT), PLAYWRIGHT) ??
    unknownOptionFinding('playwright test', args, PLAYWRIGHT_KNOWN, judged(PLAYWRIGHT)) ??
    TESTS
  );
};

/** tsc's options that name what it writes (when it emits at all). */
const TSC_WRITES = ['outdir', 'outfile', 'declarationdir', 'tsbuildinfofile', 'generatetrace', 'generatecpuprofile'];

/** tsc (and vue-tsc): type-checks freely with --noEmit; options are case-insensitive and take one or two dashes. */
function tsc(name: string): Checker {
  return (args) => {
    const opts = args
      .map((w, i) => ({ w, i, key: w.text.replace(/^--?/, '').toLowerCase() }))
      .filter((o) => o.w.text.startsWith('-'));
    const info = opts.find((o) => ['version', 'v', 'help', 'h', 'all', 'showconfig', 'listfilesonly'].includes(o.key));
    const project = opts.find((o) => ['p', 'project'].includes(o.key));
    const pf = project ? pathFinding(args[project.i + 1]?.text ?? '', args[project.i + 1]?.raw) : null;
    if (pf) return pf;
    const outputs = opts
      .filter((o) => TSC_WRITES.includes(o.key))
      .map((o) => args[o.i + 1])
      .filter((w): w is Word => w !== undefined);
    for (const w of outputs) {
      const bad = writePathFinding(w.text, w.raw, w);
      if (bad) return bad;
    }
    const writes = opts.find((o) =>
      ['generatetrace', 'build', 'b', 'init', 'incremental', 'i', 'watch', 'w', 'generatecpuprofile'].includes(o.key),
    );
    const emitted = [
      ...outputs.map((w) => w.text),
      'compiled files where tsconfig.json puts them (next to the sources by default)',
    ];
    if (writes)
      return writing(
        gated(
          'tsc-writes',
          `${name} ${q(writes.w.raw)} writes files or keeps running`,
          'Type-check with npx tsc --noEmit (add -p tsconfig.json if needed).',
        ),
        writes.key === 'init' ? ['tsconfig.json'] : emitted,
      );
    if (info) return { free: 'prints compiler information' };
    if (!opts.some((o) => o.key === 'noemit')) {
      return writing(
        gated('tsc-writes', `${q(name)} without --noEmit writes compiled files`, 'Type-check with npx tsc --noEmit.'),
        emitted,
      );
    }
    return { free: 'type-checks without writing files' };
  };
}

const PRETTIER: readonly OptionRule[] = [
  { names: ['config', 'plugin'], kind: 'module' },
  { names: ['ignorePath'], kind: 'read' },
  { names: ['cacheLocation'], kind: 'write' },
];

const PRETTIER_KNOWN: KnownOptions = {
  long: [
    'check',
    'listDifferent',
    'write',
    'ignoreUnknown',
    'noConfig',
    'editorconfig',
    'cache',
    'cacheStrategy',
    'logLevel',
    'color',
    'parser',
    'printWidth',
    'tabWidth',
    'useTabs',
    'semi',
    'singleQuote',
    'jsxSingleQuote',
    'quoteProps',
    'trailingComma',
    'bracketSpacing',
    'bracketSameLine',
    'arrowParens',
    'proseWrap',
    'htmlWhitespaceSensitivity',
    'vueIndentScriptAndStyle',
    'endOfLine',
    'embeddedLanguageFormatting',
    'singleAttributePerLine',
    'objectWrap',
    'experimentalTernaries',
    'experimentalOperatorPosition',
    'rangeStart',
    'rangeEnd',
    'insertPragma',
    'requirePragma',
    'stdinFilepath',
    'cursorOffset',
    'findConfigPath',
    'fileInfo',
    'supportInfo',
    'version',
    'help',
    'withNodeModules',
    'configPrecedence',
    'errorOnUnmatchedPattern',
  ],
  flags: 'clwuvh',
};

/** prettier prints or checks freely; --write rewrites files. */
const prettier = (args: readonly Word[]): Verdict => {
  const tokens = scanOptions(args, {
    longValue: [
      'config',
      'ignore-path',
      'plugin',
      'parser',
      'cache-location',
      'log-level',
      'config-precedence',
      'cursor-offset',
      'stdin-filepath',
    ],
  });
  const files = operands(tokens).map((o) => o.word);
  const bad =
    pathOperandsFinding('prettier', files, true) ??
    runnerOptionsFinding('prettier', readRunnerOptions(args, {}), PRETTIER);
  if (bad?.tier === 'never') return bad;
  const write = findShort(tokens, 'w') ?? findLong(tokens, ['write']);
  if (write)
    return writing(
      gated(
        'formatter-writes',
        `prettier ${q(shown(write))} rewrites files`,
        'Check formatting with npx prettier --check, then edit with ws_edit.',
      ),
      files.map((w) => `${w.text} (every file it formats)`),
    );
  return (
    bad ?? unknownOptionFinding('prettier', args, PRETTIER_KNOWN, judged(PRETTIER)) ?? { free: 'checks formatting' }
  );
};

const ESLINT_FORMATS = [
  'stylish',
  'compact',
  'json',
  'json-with-metadata',
  'html',
  'junit',
  'checkstyle',
  'tap',
  'unix',
  'visualstudio',
  'jslint-xml',
];
const ESLINT: readonly OptionRule[] = [
  { names: ['format'], kind: 'module', builtins: ESLINT_FORMATS },
  { names: ['config', 'plugin', 'rulesdir', 'parser', 'resolvePluginsRelativeTo'], kind: 'module' },
  { names: ['ignorePath'], kind: 'read' },
  { names: ['outputFile', 'cacheLocation'], kind: 'write' },
  { names: ['inspectConfig'], kind: 'port', why: 'starts the config inspector, a web server it may download first' },
];

const ESLINT_KNOWN: KnownOptions = {
  long: [
    'fix',
    'init',
    'ext',
    'env',
    'global',
    'parserOptions',
    'rule',
    'eslintrc',
    'inlineConfig',
    'reportUnusedDisableDirectives',
    'reportUnusedDisableDirectivesSeverity',
    'reportUnusedInlineConfigs',
    'cache',
    'cacheStrategy',
    'maxWarnings',
    'quiet',
    'color',
    'debug',
    'printConfig',
    'stdin',
    'stdinFilename',
    'errorOnUnmatchedPattern',
    'exitOnFatalError',
    'passOnNoPatterns',
    'fixDryRun',
    'fixType',
    'ignorePattern',
    'ignore',
    'help',
    'version',
    'flag',
    'stats',
    'concurrency',
    'configLookup',
    'envInfo',
    'warnIgnored',
  ],
  flags: 'hv',
  values: 'cfo',
};

const eslint = (args: readonly Word[]): Verdict => {
  const tokens = scanOptions(args, {
    shortValue: 'cfo',
    longValue: [
      'config',
      'format',
      'output-file',
      'ext',
      'rulesdir',
      'ignore-path',
      'resolve-plugins-relative-to',
      'cache-location',
      'max-warnings',
      'plugin',
      'parser',
      'rule',
      'env',
      'global',
    ],
  });
  const files = operands(tokens).map((o) => o.word);
  const bad =
    pathOperandsFinding('eslint', files, true) ??
    runnerOptionsFinding('eslint', readRunnerOptions(args, { c: 'config', f: 'format', o: 'outputFile' }), ESLINT);
  if (bad?.tier === 'never') return bad;
  const fix = findLong(tokens, ['fix', 'init']);
  if (fix) {
    const what =
      fix.name === 'init'
        ? ['eslint.config.js', 'package.json', 'node_modules/']
        : files.map((w) => `${w.text} (every file it fixes)`);
    return writing(
      gated(
        'linter-writes',
        `eslint ${q(shown(fix))} writes files`,
        'Lint without --fix or -o; fix problems with ws_edit.',
      ),
      what,
    );
  }
  return bad ?? unknownOptionFinding('eslint', args, ESLINT_KNOWN, judged(ESLINT)) ?? { free: 'lints without writing' };
};

const PYTEST: readonly OptionRule[] = [
  { names: ['p'], kind: 'module', builtins: ['no:*'] },
  { names: ['config-file', 'pdbcls'], kind: 'module' },
  { names: ['rootdir', 'confcutdir'], kind: 'read' },
  { names: ['basetemp'], kind: 'write', why: 'empties and writes that directory' },
  {
    names: ['log-file', 'junitxml', 'junit-xml', 'resultlog', 'result-log', 'report-log', 'html', 'cov-report'],
    kind: 'write',
  },
  { names: ['debug'], kind: 'write', defaultWrite: 'pytestdebug.log' },
  { names: ['pastebin'], kind: 'port', why: 'uploads the results to a paste service' },
];

const PYTEST_KNOWN: KnownOptions = {
  long: [
    'verbose',
    'quiet',
    'exitfirst',
    'maxfail',
    'tb',
    'capture',
    'lf',
    'last-failed',
    'last-failed-no-failures',
    'ff',
    'failed-first',
    'nf',
    'new-first',
    'sw',
    'stepwise',
    'stepwise-skip',
    'co',
    'collect-only',
    'collectonly',
    'durations',
    'durations-min',
    'deselect',
    'ignore',
    'ignore-glob',
    'import-mode',
    'no-header',
    'no-summary',
    'disable-warnings',
    'disable-pytest-warnings',
    'strict-markers',
    'strict-config',
    'strict',
    'runxfail',
    'showlocals',
    'show-capture',
    'color',
    'code-highlight',
    'full-trace',
    'fulltrace',
    'log-level',
    'log-cli-level',
    'log-format',
    'log-date-format',
    'log-cli-format',
    'log-cli-date-format',
    'log-file-level',
    'cov',
    'cov-branch',
    'cov-fail-under',
    'cov-append',
    'cov-context',
    'no-cov',
    'no-cov-on-fail',
    'doctest-modules',
    'doctest-glob',
    'doctest-continue-on-failure',
    'doctest-report',
    'doctest-ignore-import-errors',
    'pyargs',
    'noconftest',
    'cache-clear',
    'cache-show',
    'trace',
    'pdb',
    'setup-show',
    'setup-only',
    'setup-plan',
    'fixtures',
    'fixtures-per-test',
    'funcargs',
    'markers',
    'version',
    'help',
    'numprocesses',
    'dist',
    'timeout',
    'keep-duplicates',
    'continue-on-collection-errors',
    'assert',
    'override-ini',
    'capture',
    'showlocals',
    'no-showlocals',
    'xfail-tb',
    'junit-prefix',
  ],
  flags: 'vqxslhV',
  values: 'kmrnWpco',
  getopt: true,
};

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
    return gated(
      'module-option',
      `pytest ${q(o.word.raw)} overrides an ini setting (addopts, pythonpath and plugin settings load code)`,
      USE.tests,
    );
  }
  return null;
}

const pytest = (args: readonly Word[]): Verdict => {
  const tokens = scanOptions(args, {
    shortValue: 'kmpcorWn',
    longValue: [
      'junitxml',
      'junit-xml',
      'basetemp',
      'rootdir',
      'confcutdir',
      'maxfail',
      'log-file',
      'config-file',
      'override-ini',
      'deselect',
      'ignore',
      'durations',
      'import-mode',
      'tb',
      'capture',
      'cov',
      'cov-report',
      'html',
      'pastebin',
      'report-log',
    ],
  });
  // Test paths may carry a node id: tests/test_a.py::test_b.
  const paths = operands(tokens).map((o) => ({ ...o.word, text: o.text.split('::')[0]! }));
  const outside = paths.map((w) => pathFinding(w.text, w.raw)).find((f) => f !== null);
  if (outside) return outside;
  return (
    runnerOptionsFinding(
      'pytest',
      readRunnerOptions(args, { p: 'p', c: 'config-file', o: 'override-ini' }, true),
      PYTEST,
    ) ??
    pytestIniFinding(args) ??
    readRunnerOptions(args, { W: 'pythonwarnings' }, true)
      .filter((o) => o.name === 'pythonwarnings')
      .map((o) => (o.values[0] ? warningFilterFinding('pytest', o.word.raw, o.values[0].text) : null))
      .find((f) => f !== null) ??
    unknownOptionFinding('pytest', args, PYTEST_KNOWN, [...judged(PYTEST), 'override-ini', 'pythonwarnings']) ??
    TESTS
  );
};

/** Go's flag package takes -name and --name alike, with =value or the next word. */
function goFlags(args: readonly Word[]): { key: string; w: Word; value: Word | undefined }[] {
  return args.flatMap((w, i) => {
    if (!w.text.startsWith('-')) return [];
    const eq = w.text.indexOf('=');
    // The test binary's own spelling (`-test.outputdir`) is the same flag.
    const key = w.text
      .replace(/^--?/, '')
      .split('=')[0]!
      .replace(/^test\./, '');
    return [
      { key, w, value: eq >= 0 ? { ...w, text: w.text.slice(eq + 1), quoted: w.quoted.slice(eq + 1) } : args[i + 1] },
    ];
  });
}

const GO_FREE = ['test', 'run', 'vet', 'version', 'env', 'list', 'doc', 'help'];
/** go's build, test and vet flags that load nothing (`-vettool`, `-pkgdir` and other file-naming flags are not among them), the test binary's `-test.*`, and vet's analyzers. */
const GO_KNOWN: KnownOptions = {
  long: [
    'v',
    'x',
    'n',
    'a',
    'race',
    'msan',
    'asan',
    'cover',
    'covermode',
    'coverpkg',
    'count',
    'cpu',
    'parallel',
    'run',
    'skip',
    'bench',
    'benchtime',
    'benchmem',
    'timeout',
    'short',
    'failfast',
    'fullpath',
    'shuffle',
    'json',
    'list',
    'fuzz',
    'fuzztime',
    'fuzzminimizetime',
    'tags',
    'mod',
    'p',
    'trimpath',
    'work',
    'buildvcs',
    'buildmode',
    'compiler',
    'gcflags',
    'asmflags',
    'ldflags',
    'gccgoflags',
    'installsuffix',
    'linkshared',
    'modcacherw',
    'vet',
    'args',
    'blockprofilerate',
    'memprofilerate',
    'mutexprofilefraction',
    'c',
    'i',
    'w',
    'u',
    'e',
    'f',
    'm',
    'deps',
    'find',
    'export',
    'test',
    'compiled',
    'retract',
    'versions',
    'reuse',
    'all',
    'cmd',
    'short',
    'src',
    'h',
    'help',
    'fix',
    'diff',
    'flags',
    'json',
    'C',
    'modfile',
    'overlay',
    'pgo',
    'exec',
    'toolexec',
    'o',
    'coverprofile',
    'cpuprofile',
    'memprofile',
    'blockprofile',
    'mutexprofile',
    'trace',
    'outputdir',
    'test.*',
    'appends',
    'asmdecl',
    'assign',
    'atomic',
    'bools',
    'buildtag',
    'cgocall',
    'composites',
    'copylocks',
    'defers',
    'directive',
    'errorsas',
    'framepointer',
    'hostport',
    'httpresponse',
    'ifaceassert',
    'loopclosure',
    'lostcancel',
    'nilfunc',
    'printf',
    'printf.*',
    'shift',
    'sigchanyzer',
    'slog',
    'stdmethods',
    'stdversion',
    'stringintconv',
    'structtag',
    'testinggoroutine',
    'tests',
    'timeformat',
    'unmarshal',
    'unreachable',
    'unsafeptr',
    'unusedresult',
    'unusedresult.*',
    'waitgroup',
  ],
  singleDash: true,
};
const GO_WRITES = [
  'o',
  'coverprofile',
  'cpuprofile',
  'memprofile',
  'blockprofile',
  'mutexprofile',
  'trace',
  'outputdir',
  'fuzzcachedir',
  'gocoverdir',
];
/** The words go itself reads: in `go run PKG ARGS…` what follows the package is the program's own. */
function goOwnArgs(sub: string, args: readonly Word[]): readonly Word[] {
  if (sub !== 'run') return args;
  const at = args.findIndex((w) => w.text === 'run');
  const pkg = args.findIndex((w, i) => i > at && !w.text.startsWith('-'));
  return pkg < 0 ? args : args.slice(0, pkg + 1);
}

const go = (args: readonly Word[]): Verdict => {
  const sub = args.find((w) => !w.text.startsWith('-'))?.text ?? '';
  const flags = goFlags(args);
  const runs = flags.find(
    (f) =>
      ['exec', 'toolexec'].includes(f.key) ||
      (['ldflags', 'gccgoflags'].includes(f.key) && /extld/.test(f.value?.text ?? '')),
  );
  if (runs)
    return never(
      'runner-exec',
      `go ${sub} ${q(runs.w.raw)} runs the binaries or the linker through another program`,
      USE.tests,
    );
  for (const f of flags.filter((f) => ['C', 'modfile', 'overlay', 'pgo'].includes(f.key))) {
    const out = pathFinding(f.value?.text ?? '', f.value?.raw);
    if (out) return out;
  }
  // The compiler's, assembler's and linker's own flags (-memprofile=, -o=, -importcfg=, -trace= …)
  // read and write files of their own; ws_shell does not read them one by one: a person decides.
  const tool = flags.find((f) => ['gcflags', 'ldflags', 'asmflags', 'gccgoflags'].includes(f.key));
  if (tool) {
    return writing(
      gated(
        'go-tool-flags',
        `go ${sub} ${q(tool.w.raw)} passes flags to the Go compiler, assembler or linker, which can read and write files of their own`,
        USE.approval,
      ),
      [`whatever the flags ${q(tool.value?.text ?? '')} make the tool write (not known before it runs)`],
    );
  }
  const outputs = flags.filter((f) => GO_WRITES.includes(f.key));
  for (const f of outputs) {
    const bad = f.value ? writePathFinding(f.value.text, f.value.raw, f.value) : null;
    if (bad) return bad;
  }
  const writes = flags.find((f) => [...GO_WRITES, 'c', 'w', 'u'].includes(f.key));
  if (!GO_FREE.includes(sub) || writes) {
    const what = writes
      ? `go ${sub} ${q(writes.w.raw)} writes files`
      : `${q(`go ${sub}`.trim())} builds, installs or changes modules`;
    const listed = outputs.map((f) => f.value?.text ?? '').filter(Boolean);
    return writing(
      gated('go-writes', what, USE.approval),
      listed.length
        ? listed
        : ['build output, go.mod, go.sum or the module cache (outside the workspace), as the command does'],
    );
  }
  const unknown = unknownOptionFinding(`go ${sub}`, goOwnArgs(sub, args), GO_KNOWN);
  if (unknown) return unknown;
  return sub === 'test' ? TESTS : { free: 'reads or runs workspace code' };
};

/** cargo's options that load nothing; `--target` is not among them (a path there is a target spec, which names the linker). */
const CARGO_KNOWN: KnownOptions = {
  long: [
    'package',
    'workspace',
    'exclude',
    'all',
    'lib',
    'bins',
    'bin',
    'examples',
    'example',
    'tests',
    'test',
    'benches',
    'bench',
    'all-targets',
    'doc',
    'no-run',
    'no-fail-fast',
    'features',
    'all-features',
    'no-default-features',
    'release',
    'profile',
    'jobs',
    'keep-going',
    'message-format',
    'verbose',
    'quiet',
    'color',
    'frozen',
    'locked',
    'offline',
    'ignore-rust-version',
    'timings',
    'unit-graph',
    'future-incompat-report',
    'help',
    'version',
    'list',
    'explain',
    'manifest-path',
    'target-dir',
    'artifact-dir',
    'out-dir',
    'lockfile-path',
    'config',
  ],
  flags: 'qvrhV',
  values: 'pjFC',
  getopt: true,
};
/** libtest's options, after `cargo test --`. */
const LIBTEST_KNOWN: KnownOptions = {
  long: [
    'test-threads',
    'nocapture',
    'no-capture',
    'show-output',
    'ignored',
    'include-ignored',
    'exact',
    'skip',
    'list',
    'format',
    'color',
    'quiet',
    'test',
    'bench',
    'force-run-in-process',
    'exclude-should-panic',
    'report-time',
    'ensure-time',
    'shuffle',
    'shuffle-seed',
    'help',
  ],
  flags: 'qh',
  values: 'Z',
  getopt: true,
};

const cargo = (args: readonly Word[]): Verdict => {
  const config = args.find((w) => w.text === '--config' || w.text.startsWith('--config='));
  if (config) return never('runner-exec', `cargo ${q(config.raw)} can set a program to run`, USE.tests);
  const tokens = scanOptions(args, {
    shortValue: 'pjFCZ',
    longValue: [
      'manifest-path',
      'target-dir',
      'artifact-dir',
      'out-dir',
      'package',
      'jobs',
      'features',
      'target',
      'lockfile-path',
      'profile',
      'test',
      'bin',
      'example',
      'bench',
    ],
  });
  for (const t of tokens) {
    if (t.kind === 'operand') continue;
    const reads = (t.kind === 'long' && t.name === 'manifest-path') || (t.kind === 'short' && t.name === 'C');
    const writesTo = t.kind === 'long' && ['target-dir', 'artifact-dir', 'out-dir', 'lockfile-path'].includes(t.name);
    const f = reads
      ? pathFinding(t.value ?? '', t.valueRaw ?? '')
      : writesTo
        ? writePathFinding(t.value ?? '', t.valueRaw ?? '', t.valueWord ?? undefined)
        : null;
    if (f) return f;
    if (writesTo)
      return writing(
        gated(
          'cargo-writes',
          `cargo ${q(shown(t))} writes build output there`,
          'Run the tests with cargo test; a person approves other output directories.',
        ),
        [t.value ?? ''],
      );
  }
  const sub = operands(tokens)[0]?.text;
  if (sub === undefined && args.some((w) => ['--version', '-V'].includes(w.text)))
    return { free: 'is a version query' };
  const dashes = args.findIndex((w) => w.text === '--');
  const harness = dashes < 0 ? [] : args.slice(dashes + 1);
  const logfile = readRunnerOptions(harness, {}, true).find((o) => o.name === 'logfile');
  if (logfile) {
    const file = logfile.values[0];
    const bad = file ? writePathFinding(file.text, file.raw, file) : null;
    if (bad) return bad;
    return writing(
      gated('report-file', `cargo test ${q(logfile.word.raw)} writes the test log`, USE.tests),
      file ? [file.text] : [],
    );
  }
  const unknown =
    unknownOptionFinding(`cargo ${sub ?? ''}`.trim(), dashes < 0 ? args : args.slice(0, dashes), CARGO_KNOWN) ??
    unknownOptionFinding('the test harness', harness, LIBTEST_KNOWN, ['logfile']);
  if (unknown) return unknown;
  if (sub === 'test') return TESTS;
  return writing(
    gated(
      'cargo-writes',
      `${q(`cargo ${sub ?? ''}`.trim())} builds into target/, installs or changes the manifest`,
      'Run the tests with cargo test; anything else needs a person.',
    ),
    ['target/', 'Cargo.toml', 'Cargo.lock', '~/.cargo (outside the workspace) for installs'],
  );
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
