/**
 * Package managers. Their test entry points (npm test, npm run test:unit, yarn test, pnpm test)
 * and read-only queries (npm ls, pip list) are free; installs, publishes, other package.json
 * scripts and registry queries are gated; npm options that name a program (`--script-shell`)
 * are never allowed. npx runs a known local tool through its own checker, and anything else
 * through a person, since it may download and run a package.
 */
import { gated, isFinding, never, q, USE, type Verdict } from './decision.ts';
import type { Checker, Lookup } from './checker.ts';
import { findShort, longSelects, operands, scanOptions, shown, type OperandToken, type Token } from './options.ts';
import { optionPathFinding, optionWriteFinding } from './paths.ts';
import { testArgsFinding } from './test-runners.ts';
import { writing } from './writers.ts';
import type { Word } from './words.ts';

/** npm configuration keys that name a program or a config file, so setting one runs code. */
const NPM_PROGRAM_KEYS = [
  'script-shell',
  'shell',
  'node-options',
  'userconfig',
  'globalconfig',
  'editor',
  'git',
  'browser',
  'viewer',
  'node-gyp',
  'init-module',
  'onload-script',
  'call',
];

/** Script names that run tests or a type-check. */
function isTestScript(name: string): boolean {
  return /^test(?:[:._-].*)?$/.test(name) || ['typecheck', 'type-check', 'check-types', 'types'].includes(name);
}

const INSTALLS = new Set(
  'install i in ins inst insta instal isnt isnta isntal isntall add ci clean-install ic install-clean isntall-clean install-ci-test install-test it update up upgrade udpate uninstall remove rm r un unlink link ln publish unpublish dedupe ddp prune rebuild rb audit exec x dlx init create innit pack version deprecate dist-tag owner access adduser login logout token cache set pkg global import patch store plugin'.split(
    ' ',
  ),
);
const REGISTRY = new Set('view v info show outdated search s se find ping doctor fund docs bugs repo home'.split(' '));
const LISTS = new Set('ls list la ll explain why root prefix'.split(' '));
/** npm's shortcuts for `npm run start` and friends. */
const SCRIPT_SHORTCUTS = new Set(['start', 'stop', 'restart']);

/** Options naming the directory the tool works in, or the workspace package it runs: they must stay in the workspace. */
const DIRECTORY_KEYS = ['prefix', 'dir', 'cwd', 'workspace', 'filter'];
/** Options naming a directory the tool writes logs or caches into. */
const WRITE_KEYS = [
  'logs-dir',
  'cache',
  'cache-dir',
  'cache-folder',
  'store-dir',
  'modules-folder',
  'global-folder',
  'virtual-store-dir',
];

/**
 * npm/yarn/pnpm options: a program-naming key is never allowed; directories they work in must stay
 * in the workspace; a directory they write goes through the write jail and needs a person.
 */
function optionsFinding(tool: string, tokens: readonly Token[]): Verdict | null {
  let writes: Verdict | null = null;
  for (const t of tokens) {
    if (t.kind === 'long' && NPM_PROGRAM_KEYS.some((k) => longSelects(t.name, k))) {
      return never(
        'npm-config',
        `${tool} option ${q(shown(t))} names a program or config file that npm would run or load`,
        USE.tests,
      );
    }
    const directory =
      (t.kind === 'long' && DIRECTORY_KEYS.some((k) => longSelects(t.name, k))) ||
      (t.kind === 'short' && 'Cw'.includes(t.name));
    if (directory) {
      const f = optionPathFinding(t);
      if (f) return f;
    }
    if (t.kind === 'long' && WRITE_KEYS.some((k) => longSelects(t.name, k))) {
      const f = optionWriteFinding(t);
      if (f) return f;
      writes ??= writing(
        gated('writer-flag', `${tool} ${q(shown(t))} writes logs or caches into ${q(t.value ?? '')}`, USE.approval),
        [t.value ?? ''],
      );
    }
  }
  return findShort(tokens, 'c') ? never('npm-config', `${tool} -c runs a shell string`, USE.oneCommand) : writes;
}

/** What an install writes, for the approval prompt. */
function installWrites(tool: string): string[] {
  const lock =
    { npm: 'package-lock.json', yarn: 'yarn.lock', pnpm: 'pnpm-lock.yaml', bun: 'bun.lock' }[tool] ?? 'the lock file';
  return ['node_modules/', 'package.json', lock, "whatever the packages' install scripts write"];
}

/**
 * Runs a package.json script: test scripts are free, others gated. Every word after the script
 * name reaches the test runner (before `--` through npm's argument passing, after it directly),
 * so all of them go through the test-argument rule.
 */
function runScript(tool: string, script: string, rest: readonly Word[]): Verdict {
  if (!isTestScript(script)) {
    return writing(
      gated(
        'script',
        `${q(`${tool} run ${script}`)} runs the package.json script ${q(script)}, which may build, serve or write files`,
        USE.approval,
      ),
      [`whatever the script ${q(script)} writes (not known before it runs)`],
    );
  }
  return testArgsFinding(`${tool} ${script}`, rest) ?? { free: "runs the project's tests" };
}

function packageManager(tool: 'npm' | 'yarn' | 'pnpm' | 'bun'): Checker {
  return (args) => {
    const tokens = scanOptions(args, {
      shortValue: 'wC',
      longValue: ['workspace', 'prefix', 'loglevel', 'filter', 'dir', 'cwd', ...WRITE_KEYS],
    });
    const bad = optionsFinding(tool, tokens);
    if (bad && isFinding(bad) && bad.tier === 'never') return bad;
    const ops = operands(tokens);
    const first = ops[0];
    if (first === undefined) {
      if (tokens.some((t) => (t.kind === 'long' && t.name === 'version') || (t.kind === 'short' && t.name === 'v')))
        return { free: 'is a version query' };
      if (tool === 'npm') return bad ?? { free: 'prints npm usage' };
      return writing(
        gated('install', `${q(tool)} alone installs the project's dependencies and runs their scripts`, USE.approval),
        installWrites(tool),
      );
    }
    const verdict = subcommand(tool, first.text, ops, args.slice(first.index + 1), args);
    // An option that writes (--logs-dir) makes an otherwise free command need a person.
    return bad && !isFinding(verdict) ? bad : verdict;
  };
}

function subcommand(
  tool: 'npm' | 'yarn' | 'pnpm' | 'bun',
  sub: string,
  ops: readonly OperandToken[],
  after: readonly Word[],
  args: readonly Word[],
): Verdict {
  if (['test', 't', 'tst'].includes(sub)) return runScript(tool, 'test', after);
  if (['run', 'run-script', 'rum', 'urn'].includes(sub)) {
    const script = ops[1];
    if (script === undefined) return { free: 'lists the package.json scripts' };
    return runScript(tool, script.text, args.slice(script.index + 1));
  }
  if (LISTS.has(sub)) return { free: 'lists installed packages' };
  if (INSTALLS.has(sub))
    return writing(
      gated(
        'install',
        `${q(`${tool} ${sub}`)} installs, removes or publishes packages and can run their scripts`,
        USE.approval,
      ),
      installWrites(tool),
    );
  if (REGISTRY.has(sub))
    return writing(
      gated('network', `${q(`${tool} ${sub}`)} queries the package registry over the network`, USE.approval),
      [],
    );
  // yarn, pnpm and bun run a script or binary by bare name; npm only its start/stop shortcuts.
  if (tool !== 'npm' || SCRIPT_SHORTCUTS.has(sub)) return runScript(tool, sub, after);
  return never('npm-unknown', `${q(`npm ${sub}`)} is not an npm command ws_shell knows`, USE.readOnly);
}

/** What running a package npx may download writes. */
const NPX_WRITES = [
  'the npm cache (outside the workspace)',
  'whatever the package writes when it runs (not known before it runs)',
];

/** Tools npx may run without a person, each through its own checker. */
const NPX_TOOLS = new Set([
  'vitest',
  'jest',
  'mocha',
  'playwright',
  'tsc',
  'vue-tsc',
  'svelte-check',
  'prettier',
  'eslint',
  'tsx',
  'ts-node',
]);

/** npx TOOL ARGS…: a known local tool is checked as itself; anything else may be downloaded and run. */
function npx(tool: string): Checker {
  return (args, lookup: Lookup) => {
    const tokens = scanOptions(args, { shortValue: 'pc', longValue: ['package', 'call'], stopAtOperand: true });
    const call = tokens.find(
      (t) => (t.kind === 'short' && t.name === 'c') || (t.kind === 'long' && longSelects(t.name, 'call')),
    );
    if (call) return never('eval', `${tool} ${q(shown(call))} runs a shell string`, USE.oneCommand);
    const pkg = tokens.find(
      (t) => (t.kind === 'short' && t.name === 'p') || (t.kind === 'long' && longSelects(t.name, 'package')),
    );
    if (pkg)
      return writing(
        gated('install', `${tool} ${q(shown(pkg))} installs a package to run it`, USE.approval),
        NPX_WRITES,
      );
    const target = operands(tokens)[0];
    if (target === undefined)
      return never('npx-empty', `${q(tool)} without a tool name runs nothing useful`, USE.tests);
    const checker = NPX_TOOLS.has(target.text) ? lookup(target.text) : undefined;
    if (!checker) {
      return writing(
        gated(
          'npx-unknown',
          `${q(`${tool} ${target.text}`)} may download and run a package that is not in the project`,
          'Use a tool the project already has (npx vitest run, npx tsc --noEmit …); otherwise a person must approve it.',
        ),
        NPX_WRITES,
      );
    }
    return checker(args.slice(target.index + 1), lookup);
  };
}

/** Installers outside the JS world: a few query subcommands are free, the rest installs or changes packages. */
const QUERIES: Readonly<Record<string, readonly string[]>> = {
  pip: ['list', 'show', 'freeze', 'check'],
  pip3: ['list', 'show', 'freeze', 'check'],
  gem: ['list'],
  brew: ['list'],
  helm: ['list', 'version'],
  poetry: ['show'],
  conda: ['list'],
  uv: [],
  pipx: ['list'],
  apt: [],
  'apt-get': [],
  yum: [],
  dnf: [],
  pacman: [],
  apk: [],
  snap: [],
  port: [],
  composer: ['show'],
  bundle: ['list'],
};

function installer(tool: string, queries: readonly string[]): Checker {
  return (args: readonly Word[]) => {
    const sub = args.find((w) => !w.text.startsWith('-'))?.text;
    if (sub === undefined && args.some((w) => ['--version', '-V', 'version'].includes(w.text)))
      return { free: 'is a version query' };
    if (sub !== undefined && queries.includes(sub)) return { free: 'lists installed packages' };
    return writing(gated('install', `${q(`${tool} ${sub ?? ''}`.trim())} installs or changes packages`, USE.approval), [
      `the packages ${tool} manages (its environment or the system, usually outside the workspace)`,
    ]);
  };
}

/** Package-manager checkers by command name. */
export const PACKAGE_MANAGERS: Readonly<Record<string, Checker>> = {
  npm: packageManager('npm'),
  yarn: packageManager('yarn'),
  pnpm: packageManager('pnpm'),
  bun: packageManager('bun'),
  npx: npx('npx'),
  pnpx: npx('pnpx'),
  bunx: npx('bunx'),
  ...Object.fromEntries(Object.entries(QUERIES).map(([tool, queries]) => [tool, installer(tool, queries)])),
};
