/** Option scanning, the path jail and ANSI-C decoding: the pure helpers the rules build on. */
import { describe, expect, it } from 'vitest';
import { findLong, findShort, longSelects, scanOptions, type OptionSpec } from './options.ts';
import { pathFinding } from './paths.ts';
import { decodeAnsiC, type Word } from './words.ts';

const words = (...texts: string[]): Word[] =>
  texts.map((text) => ({ text, raw: text, quoted: [...text].map(() => false), plain: true }));

describe('scanOptions', () => {
  const SORT: OptionSpec = { shortValue: 'kStTo', longValue: ['output', 'key', 'compress-program'] };
  const rows: readonly (readonly [string[], OptionSpec, string[]])[] = [
    [['-uo', 'out', 'in'], SORT, ['-u', '-o=out', 'in']],
    [['-oout', 'in'], SORT, ['-o=out', 'in']],
    [['-to', 'in'], SORT, ['-t=o', 'in']],
    [['--output', 'x', 'in'], SORT, ['--output=x', 'in']],
    [['--out', 'x', 'in'], SORT, ['--out=x', 'in']],
    [['--output=x'], SORT, ['--output=x']],
    [['--', '-o', 'x'], SORT, ['-o', 'x']],
    [['-', '-r'], SORT, ['-', '-r']],
    [['-i.bak', 'f'], { shortOptional: 'i' }, ['-i=.bak', 'f']],
    [['-ni', 'f'], { shortOptional: 'i' }, ['-n', '-i', 'f']],
    [['-0', 'wc', '-l'], { stopAtOperand: true }, ['-0', 'wc', '-l']],
  ];
  it.each(rows)('%j scans to %j', (args, spec, expected) => {
    const shownTokens = scanOptions(words(...args), spec).map((t) =>
      t.kind === 'operand'
        ? t.text
        : `${t.kind === 'short' ? '-' : '--'}${t.name}${t.value === null ? '' : `=${t.value}`}`,
    );
    expect(shownTokens).toEqual(expected);
  });

  it('matches refused long options by any abbreviation, and short ones inside bundles', () => {
    const tokens = scanOptions(words('-rnS', '1b', '--compress-prog=sh'), SORT);
    expect(findLong(tokens, ['compress-program'])?.word.text).toBe('--compress-prog=sh');
    expect(findShort(tokens, 'S')?.value).toBe('1b');
    expect(longSelects('output-indicator-new', 'output')).toBe(false);
    expect(longSelects('', 'output')).toBe(false);
  });
});

describe('pathFinding', () => {
  const rows: readonly (readonly [string, string | null])[] = [
    ['src/a.ts', null],
    ['.', null],
    ['-', null],
    ['/dev/null', null],
    ['a/../b', null],
    ['.slmcode/config.yaml', null],
    ['.git*', null],
    ['/etc/passwd', 'absolute path'],
    ['/dev/tcp/x/1', 'device or kernel file'],
    ['/dev/stdin', 'device or kernel file'],
    ['/dev/fd/0', 'device or kernel file'],
    ['/proc/self/environ', 'device or kernel file'],
    ['/sys/kernel', 'device or kernel file'],
    ['//proc/self/environ', 'device or kernel file'],
    ['..', 'climbs out'],
    ['a/../../b', 'climbs out'],
    ['.*', 'can match ".."'],
    ['src/.?/x', 'can match ".."'],
  ];
  it.each(rows)('%j → %j', (path, expected) => {
    const f = pathFinding(path);
    if (expected === null) expect(f).toBeNull();
    else expect(f?.what).toContain(expected);
  });
});

describe('decodeAnsiC', () => {
  const rows: readonly (readonly [string, string])[] = [
    ['\\x72\\x6d', 'rm'],
    ['\\162\\155', 'rm'],
    ['\\u0072m', 'rm'],
    ['\\U00000041', 'A'],
    ['a\\tb\\n', 'a\tb\n'],
    ["it\\'s", "it's"],
    ['\\cA', '\x01'],
    ['\\q', '\\q'],
    ['\\x', '\\x'],
  ];
  it.each(rows)('%j → %j', (body, expected) => expect(decodeAnsiC(body)).toBe(expected));
});
