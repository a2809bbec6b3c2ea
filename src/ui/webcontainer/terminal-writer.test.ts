/** TerminalWriter: one row per event kind, and the line discipline between output and prompts. */
import { describe, expect, it } from 'vitest';
import type { TerminalEvent } from '../../workspace/webcontainer/terminal-feed.ts';
import { shellQuote, TerminalWriter } from './terminal-writer.ts';

const write = (events: readonly TerminalEvent[]): string => {
  const w = new TerminalWriter();
  return events.map((e) => w.format(e)).join('');
};

describe('TerminalWriter', () => {
  it.each([
    ['a command at the root', [{ kind: 'command', argv: ['npm', 'test'], cwd: '' }], '\x1b[1;32m$\x1b[0m npm test\r\n'],
    [
      'a command in a directory, with an argument that needs quotes',
      [{ kind: 'command', argv: ['node', '-e', "console.log('hi')"], cwd: 'src' }],
      "\x1b[1;32m$\x1b[0m node -e 'console.log('\\''hi'\\'')' \x1b[2m(in src)\x1b[0m\r\n",
    ],
    ['output passes through untouched', [{ kind: 'output', data: '\x1b[32mok\x1b[0m\r\n' }], '\x1b[32mok\x1b[0m\r\n'],
    ['an exit', [{ kind: 'exit', exitCode: 1 }], '\x1b[2m[exit 1]\x1b[0m\r\n'],
    [
      'a kill with its note',
      [{ kind: 'exit', exitCode: null, note: 'killed after 300 ms' }],
      '\x1b[31m[stopped: killed after 300 ms]\x1b[0m\r\n',
    ],
    ['a note', [{ kind: 'note', text: 'WebContainer is ready' }], '\x1b[36m# WebContainer is ready\x1b[0m\r\n'],
    [
      'output without a final newline is ended before the next line',
      [
        { kind: 'output', data: 'no newline' },
        { kind: 'exit', exitCode: 0 },
      ],
      'no newline\r\n\x1b[2m[exit 0]\x1b[0m\r\n',
    ],
    [
      'output ending a line is not given another',
      [
        { kind: 'output', data: 'done\n' },
        { kind: 'exit', exitCode: 0 },
      ],
      'done\n\x1b[2m[exit 0]\x1b[0m\r\n',
    ],
    [
      'empty output changes nothing',
      [
        { kind: 'output', data: 'x\n' },
        { kind: 'output', data: '' },
        { kind: 'exit', exitCode: 0 },
      ],
      'x\n\x1b[2m[exit 0]\x1b[0m\r\n',
    ],
  ] as const)('%s', (_label, events, text) => {
    expect(write(events)).toBe(text);
  });

  it.each([
    ['plain', 'src/a.js', 'src/a.js'],
    ['a space', 'a b', "'a b'"],
    ['a dollar', '$HOME', "'$HOME'"],
    ['empty', '', "''"],
  ])('shellQuote: %s', (_label, arg, quoted) => {
    expect(shellQuote(arg)).toBe(quoted);
  });
});
