import { describe, expect, it } from 'vitest';
import { PyReader, PySyntaxError } from './python-literal.ts';

const valueOf = (src: string): unknown => new PyReader(src).value();

describe('Python literals', () => {
  it.each([
    ["'single'", 'single'],
    ['"double"', 'double'],
    ["'''tri\nple'''", 'tri\nple'],
    ['"""a "quoted" word"""', 'a "quoted" word'],
    ["'it\\'s'", "it's"],
    ["'tab\\there\\nline'", 'tab\there\nline'],
    ["'\\x41\\u00e9\\U0001F600\\101'", 'Aé😀A'],
    ["'keep \\d as written'", 'keep \\d as written'],
    ["r'C:\\new\\d+'", 'C:\\new\\d+'],
    ["u'unicode'", 'unicode'],
    ['\'joined\' "literals"', 'joinedliterals'],
    ['42', 42],
    ['-7', -7],
    ['2.5', 2.5],
    ['.5', 0.5],
    ['1e3', 1000],
    ['1_000', 1000],
    ['0x1F', 31],
    ['0o17', 15],
    ['0b101', 5],
    ['True', true],
    ['False', false],
    ['None', null],
    ["[1, 'a', None,]", [1, 'a', null]],
    ['(1, 2)', [1, 2]],
    ['()', []],
    ["{'k': [1, {'n': True}], 2: 'two'}", { k: [1, { n: true }], 2: 'two' }],
  ])('%s', (src, want) => {
    expect(valueOf(src)).toEqual(want);
  });

  it.each([
    ["b'bytes'", /bytes literal/],
    ['1e999', /not finite/],
    ["'never closed", /never closes/],
    ["'broken\nline'", /breaks across lines/],
    ['os.system("x")', /expected a value/],
    ['x + 1', /expected a value/],
    ["{'a' 1}", /expected ":"/],
    ["'\\N{BULLET}'", /not supported/],
    ["'\\xZZ'", /hex digits/],
    ["'\\UFFFFFFFF'", /not a Unicode character/],
    ['['.repeat(100) + ']'.repeat(100), /nest deeper than 64/],
    ['{[1]: 2}', /dict key/],
  ])('refuses %s', (src, why) => {
    expect(() => valueOf(src)).toThrow(PySyntaxError);
    expect(() => valueOf(src)).toThrow(why);
  });
});

describe('Python calls', () => {
  it('reads keyword arguments, never evaluating anything', () => {
    expect(new PyReader("ws_read(path='a.js', limit=40,)").call()).toMatchObject({
      tool: 'ws_read',
      args: { path: 'a.js', limit: 40 },
    });
    expect(new PyReader('functions.ws_list()').call()).toMatchObject({ tool: 'functions.ws_list', args: {} });
  });

  it.each([
    ["ws_read('a.js')", /keyword argument/],
    ["ws_read(path='a', path='b')", /given twice/],
    ['ws_read(path==1)', /keyword argument/],
    ["ws_read(path='a'", /expected "\)"/],
  ])('refuses %s', (src, why) => {
    expect(() => new PyReader(src).call()).toThrow(why);
  });
});
