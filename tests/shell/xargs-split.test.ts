/**
 * The runner's xargs against real GNU xargs: for fixed and generated inputs and option sets, the
 * command lines `splitXargs` derives are exactly the argument lists GNU xargs starts (seen
 * through a stub that prints each argv), and where xargs fails (an unmatched quote) it fails too,
 * after the same commands. Skipped, with the reason printed, where GNU xargs is not installed.
 */
import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readXargs, splitXargs, XARGS_BUFFER_BYTES } from '../../src/engine/shell/xargs-split.ts';

const version = spawnSync('xargs', ['--version'], { encoding: 'utf8' });
const gnu = version.status === 0 && /GNU findutils/.test(version.stdout);
if (!gnu) console.log('xargs differential skipped: GNU xargs is not installed here');

/** Prints each argument NUL-terminated, then \x01: one record per command xargs runs. */
const STUB = ['sh', '-c', 'for a; do printf "%s\\0" "$a"; done; printf "\\001"', 'sh'];

interface Seen {
  readonly commands: string[][];
  readonly code: number;
  readonly stderr: string;
}

function realXargs(options: readonly string[], extra: readonly string[], input: string): Seen {
  const r = spawnSync('xargs', [...options, ...STUB, ...extra], {
    input,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C.UTF-8' },
  });
  const records = r.stdout.split('\x01');
  records.pop();
  return {
    commands: records.map((rec) => (rec === '' ? [] : rec.slice(0, -1).split('\0'))),
    code: r.status ?? -1,
    stderr: r.stderr,
  };
}

function ours(options: readonly string[], extra: readonly string[], input: string): Seen | string {
  const spec = readXargs([...options, ...STUB, ...extra]);
  if (typeof spec === 'string') return spec;
  const run = splitXargs(spec, input);
  if (typeof run === 'string') return run;
  return { commands: run.commands.map((c) => c.slice(STUB.length)), code: run.error ? 1 : 0, stderr: run.error ?? '' };
}

function compare(options: readonly string[], extra: readonly string[], input: string): void {
  const mine = ours(options, extra, input);
  if (typeof mine === 'string') throw new Error(`refused ${JSON.stringify({ options, input })}: ${mine}`);
  const real = realXargs(options, extra, input);
  const label = JSON.stringify({ options, extra, input });
  expect(mine.commands, label).toEqual(real.commands);
  expect(mine.code, `${label}: ${real.stderr}`).toBe(real.code);
  if (mine.stderr) expect(real.stderr, label).toContain(mine.stderr);
}

// Each row: xargs options, words after the command (for -I), input.
const FIXED: readonly (readonly [string[], string[], string])[] = [
  [[], [], 'a /proc/self/environ\n'],
  [[], [], 'c\n/etc/passwd\n'],
  [[], [], "./a b\n'./c d'\n\"./e'f\"\n./g\\ h\n"],
  [[], [], '  lead\ttab \v\fx\ry\n\n\nlast'],
  [[], [], "a ''\n'' b\n''"],
  [[], [], "a 'b\nc\n"],
  [[], [], "a 'b"],
  [[], [], "'"],
  [[], [], 'back\\\nslash\n'],
  [[], [], ''],
  [['-r'], [], ''],
  [['-r'], [], '\n \n'],
  [['-0'], [], 'a b\0c\nd\0\0e'],
  [['--null'], [], 'x\0'],
  [['-d', '\\n'], [], 'a b\n\nc\n'],
  [['-d,'], [], 'a,b,,c,'],
  [['-n', '2'], [], 'a b c d e\n'],
  [['-n1'], [], 'a\nb\n'],
  [['-L', '1'], [], 'a b\nc \nd\ne\n'],
  [['-L2'], [], 'a\nb\nc\n\nd\n'],
  [['--max-lines'], [], 'a\nb\n'],
  [['-I', '{}'], ['{}', 'x{}y{}'], '  one two  \n\nthree\n'],
  [['-i'], ['[{}]'], 'a\nb c\n'],
  [['--replace=R'], ['R', 'RR'], 'p\nq'],
  [['-I{}'], ['{}'], ''],
  [['-0', '-n', '1'], [], 'a\0b\0'],
  [['-rn', '1'], [], ''],
];

describe.skipIf(!gnu)('xargs splitting equals GNU xargs', () => {
  it.each(FIXED)('%j %j on %j', (options, extra, input) => compare(options, extra, input));

  it('for generated inputs and option sets', () => {
    const text = (alphabet: string[]) =>
      fc.array(fc.constantFrom(...alphabet), { maxLength: 40 }).map((cs) => cs.join(''));
    const quoting = ['a', 'b', '/', '.', 'é', ' ', ' ', '\t', '\n', '\n', "'", '"', '\\', '\v', '\f', '\r'];
    const cases = fc.oneof(
      fc.tuple(
        fc.constantFrom<string[]>(
          [],
          ['-r'],
          ['-n', '1'],
          ['-n', '3'],
          ['-L', '1'],
          ['-L', '2'],
          ['--max-args=2'],
          ['-r', '-L1'],
        ),
        fc.constant<string[]>([]),
        text(quoting),
      ),
      fc.tuple(
        fc.constantFrom<string[]>(['-I', '{}'], ['-i'], ['-I', 'X']),
        fc.constant<string[]>(['{}', 'X-{}']),
        text(quoting),
      ),
      fc.tuple(
        fc.constantFrom<string[]>(['-0'], ['-0', '-n', '2'], ['-0', '-r'], ['-0', '-L', '2']),
        fc.constant<string[]>([]),
        text(['a', ' ', '\n', "'", '\\', '\0', '\0']),
      ),
      fc.tuple(
        fc.constantFrom<string[]>(['-d', ','], ['-d', '\\n'], ['-d', '\\t', '-n', '2']),
        fc.constant<string[]>([]),
        text(['a', ' ', ',', '\n', '\t', "'"]),
      ),
    );
    fc.assert(
      fc.property(cases, ([options, extra, input]) => compare(options, extra, input)),
      { numRuns: 300 },
    );
  });

  it('splits a long input into commands at the 128 KiB buffer, as xargs does', () => {
    const input = Array.from({ length: 30_000 }, (_, i) => `file-${i}.txt`).join('\n');
    const mine = ours([], [], input);
    const real = realXargs([], [], input);
    expect(typeof mine === 'string' ? mine : mine.commands.map((c) => c.length)).toEqual(
      real.commands.map((c) => c.length),
    );
  });
});

describe('xargs options the runner does not carry out are refused', () => {
  // Each row: xargs's arguments → the refusal names this.
  const rows: readonly (readonly [string[], string])[] = [
    [['-a', 'list', 'cat'], '-a'],
    [['--arg-file=list', 'cat'], '-a'.replace('-a', '--arg-file=list')],
    [['-t', 'cat'], '-t'],
    [['-P', '4', 'cat'], '-P'],
    [['-s', '100', 'cat'], '-s'],
    [['-E', 'END', 'cat'], '-E'],
    [['-e', 'cat'], '-e'],
    [['-x', 'cat'], '-x'],
    [['-p', 'cat'], '-p'],
    [['-o', 'cat'], '-o'],
    [['--verbose', 'cat'], '--verbose'],
    [['--ver', 'cat'], '--ver'],
    [['--show-limits'], '--show-limits'],
    [['--n', 'cat'], 'ambiguous'],
    [['--nope', 'cat'], 'not an option'],
    [['-n', '0', 'cat'], 'positive whole number'],
    [['-d', 'ab', 'cat'], 'one character'],
    [['-n', '1', '-L', '1', 'cat'], 'only one of'],
  ];
  it.each(rows)('%j → refused (%s)', (args, part) => {
    const spec = readXargs(args);
    expect(typeof spec).toBe('string');
    expect(spec).toContain(part);
  });

  it('reads the rest after the first operand, or after --, as the command', () => {
    expect(readXargs(['-0', 'grep', '-n', 'x'])).toMatchObject({ command: ['grep', '-n', 'x'], delimiter: '\0' });
    expect(readXargs(['--', '-n'])).toMatchObject({ command: ['-n'] });
    expect(readXargs([])).toMatchObject({ command: ['echo'] });
  });

  it('refuses input holding a NUL without -0, and one argument longer than the buffer', () => {
    expect(splitXargs({ command: ['cat'], noRunIfEmpty: false }, 'a\0b')).toMatch(/NUL character/);
    expect(splitXargs({ command: ['cat'], noRunIfEmpty: false }, 'x'.repeat(XARGS_BUFFER_BYTES))).toMatchObject({
      commands: [],
      error: 'xargs: argument line too long',
    });
  });
});
