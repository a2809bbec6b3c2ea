import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeWasm } from '../../../tests/support/node-wasm.ts';
import { gatedShellWrites } from './shell-writes.ts';

beforeAll(() => useNodeWasm());

describe('gatedShellWrites: the paths a gated ws_shell call would write, for the approval prompt', () => {
  it.each([
    ['ws_shell', { command: 'cp a b' }, ['b']],
    [
      'ws_shell',
      { cmd: 'npm install' },
      ['node_modules/', 'package.json', 'package-lock.json', "whatever the packages' install scripts write"],
    ],
    ['ws_shell', { command: 'curl https://x.example' }, []],
    ['ws_shell', { command: 'ls' }, undefined],
    ['ws_shell', { command: 'touch .git/x' }, undefined],
    ['ws_write', { path: 'a', content: '' }, undefined],
    ['ws_shell', 'cp a b', undefined],
  ] as const)('%s %j → %j', async (tool, args, writes) => {
    expect(await gatedShellWrites(tool, args)).toEqual(writes);
  });
});
