import { describe, expect, it } from 'vitest';
import { writesText } from './writes-text.ts';

describe('writesText: what the approval prompt says a gated command writes', () => {
  it.each([
    [['cp', 'b'], 'This command would write: cp, b.'],
    [['node_modules/', 'package.json'], 'This command would write: node_modules/, package.json.'],
    [[], 'This command writes no files.'],
    [undefined, 'ws_shell cannot tell which files this command would write.'],
  ] as const)('%j → %j', (writes, text) => expect(writesText(writes)).toBe(text));
});
