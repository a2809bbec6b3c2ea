/**
 * Interpreters. Running a script file from the workspace is free (`node script.js`, `python
 * tool.py`, `node --test`), like running the project's tests; code given on the command line
 * (`-e`, `-c`, `-p`), preloaded modules (`--require`, `--import`) and in-place editing (`perl
 * -i`) are never allowed, and an interpreter with no script reads its program from stdin, which
 * in a pipeline is `curl … | sh` again. Shells running a script file need a person.
 */
import { gated, never, q, USE, type Verdict } from './decision.ts';
import type { Checker, Lookup } from './checker.ts';
import { operands, scanOptions, shown, type Token } from './options.ts';
import { optionPathFinding, pathFinding } from './paths.ts';
import type { Word } from './words.ts';

const SCRIPT: Verdict = { free: 'runs a script file from the workspace' };

function stdinFinding(name: string): Verdict {
  return never('stdin-code', `${q(name)} without a script file runs code from stdin or an interactive prompt`, USE.inlineCode);
}

function inlineFinding(name: string, t: Token): Verdict {
  return never('inline-code', `${name} ${q(shown(t))} runs code given on the command line or preloads a module`, USE.inlineCode);
}

/** node's options: those that run other code, those that only inform, and those that write. */
const NODE_CODE = ['e', 'p', 'r', 'i', 'eval', 'print', 'require', 'import', 'loader', 'experimental-loader', 'interactive', 'inspect', 'inspect-brk', 'inspect-port', 'inspect-wait'];
const NODE_WRITES = ['test-reporter-destination', 'test-update-snapshots', 'cpu-prof', 'heap-prof', 'redirect-warnings', 'report-on-signal', 'diagnostic-dir'];
const NODE_VALUE = ['test-reporter', 'test-reporter-destination', 'test-name-pattern', 'test-skip-pattern', 'test-concurrency', 'test-timeout', 'test-shard', 'env-file', 'env-file-if-exists', 'conditions', 'max-old-space-size', 'stack-size', 'unhandled-rejections', 'title', 'input-type', 'tsconfig'];
const NODE_SAFE = new Set([
  ...NODE_VALUE,
  'test', 'test-only', 'experimental-test-coverage', 'test-force-exit', 'enable-source-maps', 'no-warnings', 'trace-warnings', 'trace-uncaught', 'trace-deprecation', 'no-deprecation',
  'experimental-strip-types', 'no-experimental-strip-types', 'experimental-transform-types', 'experimental-vm-modules', 'experimental-detect-module', 'preserve-symlinks',
  'check', 'c', 'version', 'v', 'help', 'h', 'abort-on-uncaught-exception', 'watch', 'C', 'no-cache',
]);

/** node, tsx, ts-node: options up to the script; everything after the script belongs to it. */
function nodeLike(name: string): Checker {
  return (args) => {
    const from = name === 'tsx' && args[0]?.text === 'watch' ? 1 : 0;
    const tokens = scanOptions(args.slice(from), { shortValue: 'erpC', longValue: [...NODE_VALUE, 'eval', 'print', 'require', 'import', 'loader'], stopAtOperand: true });
    let info = false;
    let test = false;
    for (const t of tokens) {
      if (t.kind === 'operand') break;
      if (NODE_CODE.includes(t.name)) return inlineFinding(name, t);
      if (NODE_WRITES.includes(t.name)) return gated('writer-flag', `${name} ${q(shown(t))} writes files`, USE.tests);
      if (!NODE_SAFE.has(t.name)) return never('unknown-option', `${name} option ${q(shown(t))} is not one ws_shell knows to be safe`, USE.inlineCode);
      if (t.name === 'env-file' || t.name === 'env-file-if-exists') {
        const f = optionPathFinding(t);
        if (f) return f;
      }
      info ||= ['version', 'v', 'help', 'h'].includes(t.name);
      test ||= t.name === 'test';
    }
    const files = operands(tokens);
    if (test) {
      for (const o of files) {
        const f = pathFinding(o.text, o.word.raw);
        if (f) return f;
      }
      return { free: "runs the project's tests" };
    }
    const script = files[0];
    if (script === undefined) return info ? { free: 'is a version query' } : stdinFinding(name);
    return pathFinding(script.text, script.word.raw) ?? SCRIPT;
  };
}

/** python -m MODULE: test modules are free, pip is an installer, any other module needs a person. */
function python(name: string): Checker {
  return (args, lookup: Lookup) => {
    const tokens = scanOptions(args, { shortValue: 'cmWX', stopAtOperand: true });
    let info = false;
    for (const t of tokens) {
      if (t.kind === 'operand') break;
      if (t.name === 'c' || t.name === 'i') return inlineFinding(name, t);
      if (t.name === 'm') {
        const module = t.value ?? '';
        // The module is the rest of the `-m…` word, or the next word when nothing is attached.
        const rest = args.slice(args.indexOf(t.word) + (t.word.text.endsWith('m') ? 2 : 1));
        const checker = ['pytest', 'unittest', 'pip'].includes(module) ? lookup(module === 'pip' ? 'pip' : module) : undefined;
        if (checker) return checker(rest, lookup);
        return gated('module', `${name} -m ${q(module)} runs that module, which may serve, build or write files`, USE.approval);
      }
      if (t.kind === 'long' ? !['version', 'help'].includes(t.name) : !'VhBuOIEsSqbdvxRPWX'.includes(t.name)) {
        return never('unknown-option', `${name} option ${q(shown(t))} is not one ws_shell knows to be safe`, USE.inlineCode);
      }
      info ||= t.kind === 'long' || 'Vh'.includes(t.name);
    }
    const script = operands(tokens)[0];
    if (script === undefined) return info ? { free: 'is a version query' } : stdinFinding(name);
    return pathFinding(script.text, script.word.raw) ?? SCRIPT;
  };
}

/** ruby, perl: only a script file (plus version and warning switches); every other switch runs inline code or edits in place. */
function scriptOnly(name: string): Checker {
  return (args) => {
    let i = 0;
    for (; i < args.length && args[i]!.text.startsWith('-'); i++) {
      const t = args[i]!.text;
      if (!['-w', '-W', '-v', '--version', '-c'].includes(t)) {
        return never('inline-code', `${name} ${q(args[i]!.raw)} runs code given on the command line or edits files in place`, `${USE.inlineCode} Edit files with ws_edit.`);
      }
    }
    const script = args[i];
    if (script === undefined) return args.some((w) => ['-v', '--version'].includes(w.text)) ? { free: 'is a version query' } : stdinFinding(name);
    return pathFinding(script.text, script.raw) ?? SCRIPT;
  };
}

/** sh/bash/…: `bash script.sh` is gated (a script can do anything); `-c`, `-i`, stdin are never. */
function shell(name: string): Checker {
  return (args: readonly Word[]) => {
    const first = args[0];
    if (first === undefined) return never('wrapper', `${q(name)} reads commands from stdin (e.g. from a pipe) and runs them`, USE.oneCommand);
    if (first.text.startsWith('-') || first.text.startsWith('+')) {
      return never('wrapper', `${name} ${q(first.raw)} runs a string, stdin or an interactive session as shell code, hiding it from these checks`, USE.oneCommand);
    }
    const f = pathFinding(first.text, first.raw);
    if (f) return f;
    return gated('script', `${q(`${name} ${first.text}`)} runs a shell script, which can do anything`, 'A person must approve it; or run the commands it holds one by one.');
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
