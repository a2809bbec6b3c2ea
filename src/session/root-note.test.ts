/** The inspector's note on a step whose command saw the workspace somewhere other than /ws, one row per case. */
import { describe, expect, it } from 'vitest';
import { rootNote } from './root-note.ts';

describe('rootNote', () => {
  it.each([
    ['both at /ws (absent)', undefined, undefined, null],
    ['both at /ws (named)', '/ws', '/ws', null],
    [
      'recorded in WebContainer, replayed at /ws',
      '/home/projects/abc',
      undefined,
      'Workspace root normalised: this command saw the workspace at `/home/projects/abc`, not /ws, so its output was compared with that root read as /ws.',
    ],
    [
      'replayed in WebContainer',
      undefined,
      '/home/projects/x',
      'Workspace root normalised: this command saw the workspace at `/home/projects/x`, not /ws, so its output was compared with that root read as /ws.',
    ],
    [
      'two different roots',
      '/home/a',
      '/home/b',
      'Workspace root normalised: this command saw the workspace at `/home/a` and `/home/b`, not /ws, so its output was compared with those roots read as /ws.',
    ],
    [
      'the same root on both sides, named once',
      '/home/a',
      '/home/a',
      'Workspace root normalised: this command saw the workspace at `/home/a`, not /ws, so its output was compared with that root read as /ws.',
    ],
  ])('%s', (_what, recorded, replayed, note) => {
    expect(rootNote(recorded, replayed)).toBe(note);
  });
});
