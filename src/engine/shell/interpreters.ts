/**
 * Interpreters. Running a script file from the workspace is free (`node script.js`, `python
 * tool.py`, `node --test`), like running the project's tests, and so is python's `-c CODE`: it
 * runs in the same sandbox as a file would, and the policy sees it as it runs (one literal word
 * of the argv the plan executes). node's, tsx's and ts-node's `-e`/`-p`, debuggers
 * (`--inspect`), REPLs (`-i`), in-place editing (`perl -i`) and ruby's and perl's inline code
 * are never allowed, and an interpreter with no script — or with `-` or /dev/stdin as its
 * script — reads its program from stdin, which in a pipeline is `curl … | sh` again. Preloaded modules (`--require`,
 * `--import`, `--loader`) and reporters that are not built in (`--test-reporter=./r.mjs`) need a
 * person, as do options that write files; shells running a script file need a person too.
 */
import { gated, isFinding, never, q, USE, type Verdict } from './decision.ts';
import type { Checker, Lookup } from './checker.ts';
import { operands, scanOptions, shown, type OptionToken, type Token } from './options.ts';
import { optionPathFinding, optionWriteFinding, pathFinding } from './paths.ts';
import { moduleSpecifierFinding } from './runner-options.ts';
import { NODE_REPORTERS } from './test-runners.ts';
import { warningFilterFinding } from './python-warnings.ts';
import { writing } from './writers.ts';
import type { Word } from './words.ts';

const SCRIPT: Verdict = { free: 'runs a script file from the workspace' };
const INLINE: Verdict = { free: 'runs code given on the command line, in the same sandbox as a script file' };

function stdinFinding(name: string): Verdict {
  return never(
    'stdin-code',
    `${q(name)} without a script file runs code from stdin or an interactive prompt`,
    USE.inlineCode,
  );
}

/** node's code on the command line (`-e`, `-p`), a REPL (`-i`) or a debugger (`--inspect`). */
function inlineFinding(name: string, t: Token): Verdict {
  const what =
    t.kind !== 'operand' && NODE_INLINE.includes(t.name)
      ? 'runs code given on the command line'
      : 'opens an interactive prompt or a debugger, which runs code no check sees';
  return never('inline-code', `${name} ${q(shown(t))} ${what}`, USE.inlineCode);
}

/** node's options that run the code given as their value; the tab's node does not take them, so neither does the policy. */
const NODE_INLINE = ['e', 'p', 'eval', 'print'];
/** node's options: those that run code from the command line or a prompt or open a debugger, those that load a module, those that write. */
const NODE_CODE = [...NODE_INLINE, 'i', 'interactive', 'inspect', 'inspect-brk', 'inspect-port', 'inspect-wait'];
const NODE_MODULE = ['r', 'require', 'import', 'loader', 'experimental-loader'];
/** Options whose value is a file or directory node writes. */
const NODE_WRITE_VALUE = [
  'test-reporter-destination',
  'redirect-warnings',
  'diagnostic-dir',
  'cpu-prof-dir',
  'heap-prof-dir',
  'report-dir',
  'report-directory',
  'report-filename',
  'snapshot-blob',
];
/** Options that write files named by node itself, in the workspace root. */
const NODE_WRITE_FLAG = ['cpu-prof', 'heap-prof', 'report-on-signal', 'report-uncaught-exception', 'build-snapshot'];
const NODE_VALUE = [
  ...NODE_WRITE_VALUE,
  ...NODE_MODULE.slice(1),
  'eval',
  'print',
  'test-reporter',
  'test-name-pattern',
  'test-skip-pattern',
  'test-concurrency',
  'test-timeout',
  'test-shard',
  'env-file',
  'env-file-if-exists',
  'conditions',
  'max-old-space-size',
  'stack-size',
  'unhandled-rejections',
  'title',
  'input-type',
  'tsconfig',
  'experimental-config-file',
];
const NODE_SAFE = new Set([
  ...NODE_VALUE,
  'test',
  'test-only',
  'experimental-test-coverage',
  'test-force-exit',
  'enable-source-maps',
  'no-warnings',
  'trace-warnings',
  'trace-uncaught',
  'trace-deprecation',
  'no-deprecation',
  'experimental-strip-types',
  'no-experimental-strip-types',
  'experimental-transform-types',
  'experimental-vm-modules',
  'experimental-detect-module',
  'preserve-symlinks',
  'check',
  'c',
  'version',
  'v',
  'help',
  'h',
  'abort-on-uncaught-exception',
  'watch',
  'C',
  'no-cache',
  'test-update-snapshots',
]);

/** One of node's options: never, gated (with what it writes or loads), or null when harmless. */
function nodeOptionFinding(name: string, t: OptionToken): Verdict | null {
  if (NODE_CODE.includes(t.name)) return inlineFinding(name, t);
  if (!NODE_SAFE.has(t.name) && !NODE_MODULE.includes(t.name) && !NODE_WRITE_FLAG.includes(t.name)) {
    return never(
      'unknown-option',
      `${name} option ${q(shown(t))} is not one ws_shell knows to be safe`,
      USE.inlineCode,
    );
  }
  const value = t.value ?? '';
  if (t.name === 'tsconfig') return optionPathFinding(t);
  // An env file can set NODE_OPTIONS, a config file nodeOptions: either can preload a module or open a debugger.
  if (['env-file', 'env-file-if-exists', 'experimental-config-file'].includes(t.name)) {
    return (
      optionPathFinding(t) ??
      writing(
        gated(
          'module-option',
          `${name} ${q(shown(t))} reads ${q(value)}, which can set node's options (NODE_OPTIONS: --require, --import, --inspect) and so load modules or open a debugger`,
          'Run the script without it, or a person approves it.',
        ),
        [`whatever ${value} makes node load (not known before it runs)`],
      )
    );
  }
  if (NODE_MODULE.includes(t.name) || (t.name === 'test-reporter' && !NODE_REPORTERS.includes(value))) {
    const outside = moduleSpecifierFinding(name, shown(t), value, t.valueRaw ?? shown(t));
    return (
      outside ??
      writing(
        gated(
          'module-option',
          `${name} ${q(shown(t))} loads the module ${q(value)}, which runs as code`,
          'Run the script or tests without preloading modules, or a person approves it.',
        ),
        ['whatever the loaded module writes (not known before it runs)'],
      )
    );
  }
  if (t.name === 'test-reporter-destination' && ['stdout', 'stderr'].includes(value)) return null;
  if (NODE_WRITE_VALUE.includes(t.name)) {
    return (
      optionWriteFinding(t) ?? writing(gated('writer-flag', `${name} ${q(shown(t))} writes files`, USE.tests), [value])
    );
  }
  if (NODE_WRITE_FLAG.includes(t.name))
    return writing(gated('writer-flag', `${name} ${q(shown(t))} writes files`, USE.tests), [
      'profile or report files node names itself, in the workspace root',
    ]);
  if (t.name === 'test-update-snapshots')
    return writing(gated('snapshot-update', `${name} ${q(shown(t))} rewrites snapshot files`, USE.tests), [
      'snapshot files next to the tests',
    ]);
  return null;
}

/** node, tsx, ts-node: options up to the script; everything after the script belongs to it. */
function nodeLike(name: string): Checker {
  return (args) => {
    const from = name === 'tsx' && args[0]?.text === 'watch' ? 1 : 0;
    const tokens = scanOptions(args.slice(from), { shortValue: 'erpC', longValue: NODE_VALUE, stopAtOperand: true });
    let info = false;
    let test = false;
    let gatedFinding: Verdict | null = null;
    for (const t of tokens) {
      if (t.kind === 'operand') break;
      const f = nodeOptionFinding(name, t);
      if (f && isFinding(f) && f.tier === 'never') return f;
      gatedFinding ??= f;
      info ||= ['version', 'v', 'help', 'h'].includes(t.name);
      test ||= t.name === 'test';
    }
    const files = operands(tokens);
    const outside = (test ? files : files.slice(0, 1)).map((o) => scriptFinding(name, o.word)).find((f) => f !== null);
    if (outside) return outside;
    if (gatedFinding) return gatedFinding;
    if (test) return { free: "runs the project's tests" };
    if (files[0] === undefined) return info ? { free: 'is a version query' } : stdinFinding(name);
    return SCRIPT;
  };
}

/** A script operand: `-` reads the program from stdin (inline code again); otherwise a file in the workspace. */
function scriptFinding(name: string, w: Word): Verdict | null {
  if (w.text === '-') return stdinFinding(name);
  return pathFinding(w.text, w.raw);
}

/** `-X presite=MODULE` imports that module before anything else runs. */
function presiteFinding(name: string, t: OptionToken): Verdict {
  const module = (t.value ?? '').slice('presite='.length);
  return writing(
    gated(
      'module-option',
      `${name} ${q(shown(t))} imports the module ${q(module)} before the script, and importing it runs its code`,
      'Run the script without it, or a person approves it.',
    ),
    [`whatever the module ${module} does when it is imported (not known before it runs)`],
  );
}

/** python -m MODULE: test modules are free, pip is an installer, any other module needs a person. */
function python(name: string): Checker {
  return (args, lookup: Lookup) => {
    const tokens = scanOptions(args, { shortValue: 'cmWX', stopAtOperand: true });
    let info = false;
    // A module an option imports needs a person, unless something else refuses the command.
    let imports: Verdict | null = null;
    const atLeastImports = (v: Verdict): Verdict => (imports && !(isFinding(v) && v.tier === 'never') ? imports : v);
    for (const t of tokens) {
      if (t.kind === 'operand') break;
      // `-c CODE` ends python's options: every word after the code is an argument of it.
      if (t.name === 'c') return atLeastImports(INLINE);
      if (t.name === 'i') return inlineFinding(name, t);
      imports ??=
        t.name === 'W'
          ? warningFilterFinding(name, shown(t), t.value ?? '')
          : t.name === 'X' && /^presite=/.test(t.value ?? '')
            ? presiteFinding(name, t)
            : null;
      // -X pycache_prefix=DIR writes every .pyc under DIR: attached or spaced, DIR stays inside.
      const cache = t.name === 'X' ? /^pycache_prefix=(.*)$/s.exec(t.value ?? '') : null;
      const outside = cache ? pathFinding(cache[1]!, cache[1]) : null;
      if (outside) return outside;
      if (t.name === 'm') {
        const module = t.value ?? '';
        // The module is the rest of the `-m…` word, or the next word when nothing is attached.
        const rest = args.slice(args.indexOf(t.word) + (t.word.text.endsWith('m') ? 2 : 1));
        const checker = ['pytest', 'unittest', 'pip'].includes(module)
          ? lookup(module === 'pip' ? 'pip' : module)
          : undefined;
        if (checker) return atLeastImports(checker(rest, lookup));
        return writing(
          gated(
            'module',
            `${name} -m ${q(module)} runs that module, which may serve, build or write files`,
            USE.approval,
          ),
          [`whatever the module ${module} writes (not known before it runs)`],
        );
      }
      if (t.kind === 'long' ? !['version', 'help'].includes(t.name) : !'VhBuOIEsSqbdvxRPWX'.includes(t.name)) {
        return never(
          'unknown-option',
          `${name} option ${q(shown(t))} is not one ws_shell knows to be safe`,
          USE.inlineCode,
        );
      }
      info ||= t.kind === 'long' || 'Vh'.includes(t.name);
    }
    const script = operands(tokens)[0];
    if (script === undefined) return info ? { free: 'is a version query' } : stdinFinding(name);
    return atLeastImports(scriptFinding(name, script.word) ?? SCRIPT);
  };
}

/** ruby, perl: only a script file (plus version and warning switches); every other switch runs inline code or edits in place. */
function scriptOnly(name: string): Checker {
  return (args) => {
    let i = 0;
    for (; i < args.length && args[i]!.text.startsWith('-'); i++) {
      const t = args[i]!.text;
      if (!['-w', '-W', '-v', '--version', '-c'].includes(t)) {
        return never(
          'inline-code',
          `${name} ${q(args[i]!.raw)} runs code given on the command line or edits files in place`,
          `${USE.inlineCode} Edit files with ws_edit.`,
        );
      }
    }
    const script = args[i];
    if (script === undefined)
      return args.some((w) => ['-v', '--version'].includes(w.text))
        ? { free: 'is a version query' }
        : stdinFinding(name);
    return pathFinding(script.text, script.raw) ?? SCRIPT;
  };
}

/** sh/bash/…: `bash script.sh` is gated (a script can do anything); `-c`, `-i`, stdin are never. */
function shell(name: string): Checker {
  return (args: readonly Word[]) => {
    const first = args[0];
    if (first === undefined)
      return never('wrapper', `${q(name)} reads commands from stdin (e.g. from a pipe) and runs them`, USE.oneCommand);
    if (first.text.startsWith('-') || first.text.startsWith('+')) {
      return never(
        'wrapper',
        `${name} ${q(first.raw)} runs a string, stdin or an interactive session as shell code, hiding it from these checks`,
        USE.oneCommand,
      );
    }
    const f = pathFinding(first.text, first.raw);
    if (f) return f;
    return writing(
      gated(
        'script',
        `${q(`${name} ${first.text}`)} runs a shell script, which can do anything`,
        'A person must approve it; or run the commands it holds one by one.',
      ),
      [`whatever ${first.text} writes (not known before it runs)`],
    );
  };
}

/** Interpreter checkers by command name. */
export const INTERPRETERS: Readonly<Record<string, Checker>> = {
  node: nodeLike('node'),
  tsx: nodeLike('tsx'),
  'ts-node': nodeLike('ts-node'),
  python: python('python'),
  python3: python('python3'),
  ruby: scriptOnly('ruby'),
  perl: scriptOnly('perl'),
  ...Object.fromEntries('sh bash zsh dash ksh fish csh tcsh ash mksh'.split(' ').map((n) => [n, shell(n)])),
};
