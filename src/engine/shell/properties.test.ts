/**
 * Invariants of the shell policy, checked with fast-check over generated commands:
 * - appending a write, a second command, a substitution, backgrounding or a pipe into a writer
 *   or a shell to an allowed command never yields allow, nor does wrapping it;
 * - quoting or escaping a plain argument changes neither the decision nor the argv;
 * - python's code on the command line (-c) is allowed and planned as exactly the word written;
 * - any input at all gets a well-formed decision and never throws.
 */
import fc from 'fast-check';
import type { Parser } from 'web-tree-sitter';
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeWasm } from '../../../tests/support/node-wasm.ts';
import { parserFor } from '../treesitter/loader.ts';
import { decideShell } from './policy.ts';

let parser: Parser;
beforeAll(async () => {
  useNodeWasm();
  parser = await parserFor('bash');
});

/** Read-only commands and test runners, each taking any number of plain path operands. */
const BASES = [
  'cat',
  'head -n 5',
  'tail -n 3',
  'wc -l',
  'ls -la',
  'grep -n foo',
  'rg -n foo',
  'sort -r',
  'nl',
  'cut -d, -f1',
  'find',
  'stat',
  'du -sh',
  'diff -u',
  'git log --oneline',
  'git diff --stat',
  'git show HEAD',
  'git status --short',
  "sed -n '1,5p'",
  "awk '{print $1}'",
  "jq '.a'",
  'npm test --',
  'npx vitest run',
  'pytest -q',
  'node --test',
  'echo hi',
];
const pathWord = fc.stringMatching(/^[a-z][a-z0-9_]{0,6}(\/[a-z0-9_][a-z0-9_.]{0,6}){0,2}$/);
const allowedCommand = fc
  .tuple(fc.constantFrom(...BASES), fc.array(pathWord, { maxLength: 3 }), fc.boolean())
  .map(([base, paths, pipe]) => `${base}${paths.map((p) => ` ${p}`).join('')}${pipe ? ' | head -n 20' : ''}`);

/** Any second command, harmless or not: a list must be refused whatever follows. */
const anyCommand = fc.constantFrom('ls', 'rm -rf src', 'git status', 'curl -s https://x.example', 'echo ok', 'id');

const dangerousSuffix = fc.oneof(
  fc.constantFrom(
    ' > out.txt',
    ' >> out.txt',
    ' >| out.txt',
    ' &> out.txt',
    ' 2> err.log',
    ' &>> log',
    ' >& out',
    ' &',
  ),
  fc.constantFrom(
    ' | tee f',
    ' | tee -a .slmcode/hooks.json',
    ' | sh',
    ' | bash',
    ' |& sh',
    ' | xargs rm',
    ' | node',
    ' | python3',
  ),
  fc.constantFrom(' $HOME', ' ${x@P}', ' $((1+1))', ' ~', ' ~/x', ' {a,b}', ' $(<f)'),
  anyCommand.chain((c) =>
    fc.constantFrom(
      `; ${c}`,
      ` && ${c}`,
      ` || ${c}`,
      ` & ${c}`,
      `\n${c}`,
      ` $(${c})`,
      ` \`${c}\``,
      ` "$(${c})"`,
      ` <(${c})`,
    ),
  ),
);

const dangerousWrap = fc.oneof(
  fc
    .constantFrom(
      'sudo ',
      'env ',
      'timeout 5 ',
      'nice ',
      'nohup ',
      'exec ',
      'command ',
      'LD_PRELOAD=x.so ',
      'GIT_PAGER=sh ',
    )
    .map((p) => (c: string) => `${p}${c}`),
  fc.constantFrom(
    (c: string) => `(${c})`,
    (c: string) => `{ ${c}; }`,
    (c: string) => `bash -c '${c}'`,
    (c: string) => `eval '${c}'`,
    (c: string) => `! ${c}`,
  ),
);

describe('shell policy invariants', () => {
  it('the generated commands are allowed (the properties below start from allowed commands)', () => {
    fc.assert(
      fc.property(allowedCommand, (cmd) => {
        expect(decideShell(parser, cmd).decision).toBe('allow');
      }),
      { numRuns: 300 },
    );
  });

  it('naming a file outside the workspace is never allowed for a command that reads files', () => {
    const readers = BASES.filter((b) => !['echo hi', 'npm test --', 'npx vitest run', 'pytest -q'].includes(b));
    fc.assert(
      fc.property(
        fc.constantFrom(...readers),
        fc.constantFrom('/etc/passwd', '../secret', 'src/../../x', '.*/x', '/proc/self/environ'),
        (base, path) => {
          expect(decideShell(parser, `${base} ${path}`).decision).not.toBe('allow');
        },
      ),
      { numRuns: 200 },
    );
  });

  it('appending a write, a second command, a substitution or a pipe into a writer never yields allow', () => {
    fc.assert(
      fc.property(allowedCommand, dangerousSuffix, (cmd, suffix) => {
        expect(decideShell(parser, `${cmd}${suffix}`).decision).not.toBe('allow');
      }),
      { numRuns: 500 },
    );
  });

  it('wrapping an allowed command never yields allow', () => {
    fc.assert(
      fc.property(allowedCommand, dangerousWrap, (cmd, wrap) => {
        expect(decideShell(parser, wrap(cmd)).decision).not.toBe('allow');
      }),
      { numRuns: 300 },
    );
  });

  it('quoting or escaping a plain argument changes neither the decision nor the argv', () => {
    const quote = fc.constantFrom(
      (w: string) => `'${w}'`,
      (w: string) => `"${w}"`,
      (w: string) => `\\${w}`,
      (w: string) => `${w.slice(0, 1)}''${w.slice(1)}`,
      (w: string) => `$'${w}'`,
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...BASES),
        fc.array(pathWord, { minLength: 1, maxLength: 3 }),
        fc.nat(),
        quote,
        (base, paths, pick, q) => {
          const words = [...base.split(' '), ...paths];
          // Only plain words after the command name; quoting the name itself is refused by design.
          const candidates = words.map((w, i) => i).filter((i) => i > 0 && /^[A-Za-z0-9_./,-]+$/.test(words[i]!));
          const at = candidates[pick % candidates.length]!;
          const quoted = words.map((w, i) => (i === at ? q(w) : w)).join(' ');
          const plain = decideShell(parser, words.join(' '));
          const other = decideShell(parser, quoted);
          expect({ decision: other.decision, argv: other.argv }).toEqual({
            decision: plain.decision,
            argv: plain.argv,
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('quoting or escaping the command name is never allowed', () => {
    fc.assert(
      fc.property(
        allowedCommand,
        fc.constantFrom(
          (n: string) => `'${n}'`,
          (n: string) => `"${n}"`,
          (n: string) => `\\${n}`,
        ),
        (cmd, q) => {
          const [name, ...rest] = cmd.split(' ');
          expect(decideShell(parser, [q(name!), ...rest].join(' ')).decision).toBe('refuse');
        },
      ),
    );
  });

  it('python code on the command line is allowed and runs exactly as written: the plan holds the decoded code as one word', () => {
    // Code that starts like code: a word that is itself a path (`/a`, `../x`) meets the path rules, as any word does.
    const code = fc
      .tuple(
        fc.constantFrom(...'abcXYZ019(['),
        fc.string({
          unit: fc.constantFrom(...'abcXYZ019 ()[]{};:,.+-*/=<>!?&|^%$#@~`"\\\'\n\t'),
          maxLength: 40,
        }),
      )
      .map(([first, rest]) => first + rest);
    const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;
    fc.assert(
      fc.property(
        fc.constantFrom(['python3', '-c'], ['python', '-c']),
        code,
        fc.array(pathWord, { maxLength: 2 }),
        ([program, flag], text, args) => {
          const d = decideShell(parser, [program, flag, quote(text), ...args].join(' '));
          expect(d.decision, d.reason).toBe('allow');
          expect(d.argv).toEqual([[program, flag, text, ...args]]);
          expect(d.plan?.stages.map((s) => s.args.map((a) => a.text))).toEqual([[program, flag, text, ...args]]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('answers any input with a well-formed decision and never throws', () => {
    const shellish = fc
      .array(
        fc.constantFrom(
          'ls',
          'cat',
          'rm',
          'x',
          '-rf',
          '/',
          '..',
          ';',
          '&&',
          '||',
          '|',
          '&',
          '>',
          '<',
          '>>',
          '2>&1',
          '$(',
          ')',
          '(',
          '`',
          "'",
          '"',
          '{',
          '}',
          '$',
          '~',
          '*',
          '\\',
          '\n',
          ' ',
          '=',
          '#',
          '\u202e',
          '\u3000',
        ),
        { maxLength: 12 },
      )
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 40 }), shellish), (input) => {
        const d = decideShell(parser, input);
        expect(['allow', 'gated', 'refuse']).toContain(d.decision);
        expect(d.tier).toBe(d.decision === 'allow' ? 'free' : d.decision === 'gated' ? 'gated' : 'never');
        expect(d.reason.length).toBeGreaterThan(20);
        if (d.decision === 'allow') expect(d.argv?.length).toBeGreaterThan(0);
        expect(decideShell(parser, input)).toEqual(d);
      }),
      { numRuns: 1000 },
    );
  });
});
