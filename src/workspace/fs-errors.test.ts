/** A backend's fs error as a WorkspaceError: the code from a property or the message, the relative path, EIO for the rest. */
import { describe, expect, it } from 'vitest';
import { WorkspaceError } from '../engine/workspace.ts';
import { toWorkspaceError } from './fs-errors.ts';

describe('toWorkspaceError', () => {
  it.each([
    [
      'a code in the message only',
      new Error("ENOENT: no such file or directory, open '/home/p/x'"),
      'ENOENT',
      'ENOENT: x',
    ],
    ['a code property', Object.assign(new Error('whatever'), { code: 'EISDIR' }), 'EISDIR', 'EISDIR: x'],
    [
      'an unknown code: EIO with the original text',
      new Error('EACCES: permission denied'),
      'EIO',
      'EACCES: permission denied',
    ],
    ['no code at all', new Error('the iframe went away'), 'EIO', 'the iframe went away'],
    ['a thrown string', 'boom', 'EIO', 'boom'],
  ] as const)('%s', (_label, thrown, code, message) => {
    expect(toWorkspaceError(thrown, 'x')).toMatchObject({ code, path: 'x', message });
  });

  it('names the root as "." and passes a WorkspaceError through unchanged', () => {
    expect(toWorkspaceError(Object.assign(new Error('gone'), { code: 'ENOENT' }), '').message).toBe('ENOENT: .');
    const own = new WorkspaceError('EEXIST', 'y', 'EEXIST: y');
    expect(toWorkspaceError(own, 'x')).toBe(own);
  });
});
