/**
 * Searching "Your sessions": every word of the query, in any order, ignoring case and accents,
 * in the title, the task or the note; an empty query lists all. And the record a file or link
 * carries takes the list's title (bounded) and note.
 */
import { describe, expect, it } from 'vitest';
import type { SavedMeta } from '../../session/idb-store.ts';
import type { Session } from '../../worker/client.ts';
import { searchFields, searchSessions, titledSession } from './session-search.ts';

const meta = (id: string, title: string, task?: string, note?: string): SavedMeta => ({
  id,
  title,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  steps: 3,
  status: 'ended',
  source: 'run',
  ...(task !== undefined && { task }),
  ...(note !== undefined && { note }),
});

const SAVED = [
  meta('a', 'tiny-utils (starter) · scripted', 'Fix the failing truncate test in src/strings.js'),
  meta('b', 'Café refactor', 'Rename helpers', 'kept for the talk'),
  meta('c', 'An older entry'),
];

describe('searchSessions', () => {
  it.each([
    ['an empty query', '', ['a', 'b', 'c']],
    ['blank space', '   ', ['a', 'b', 'c']],
    ['a word of a title', 'starter', ['a']],
    ['a word of a task', 'truncate', ['a']],
    ['a word of a note', 'talk', ['b']],
    ['other case', 'TRUNCATE', ['a']],
    ['without the accent', 'cafe', ['b']],
    ['words from title and task together, any order', 'strings.js tiny-utils', ['a']],
    ['a word nowhere', 'python', []],
    ['one word found, one not', 'truncate python', []],
    ['an entry saved before tasks were kept, by its title', 'older', ['c']],
  ])('%s: %j', (_what, query, ids) => {
    expect(searchSessions(SAVED, query).map((m) => m.id)).toEqual(ids);
  });
});

describe('what travels', () => {
  const session = { task: 't'.repeat(400), note: 'from the file' } as Session;

  it('the list keeps the task (cut at 300) and the note', () => {
    expect(searchFields(session)).toEqual({ task: 't'.repeat(300), note: 'from the file' });
    expect(searchFields({ task: 'x' })).toEqual({ task: 'x' });
  });

  it("the record takes the list's title, cut at 200, and note; no note drops the record's own", () => {
    expect(titledSession(session, 'T'.repeat(250), 'mine')).toMatchObject({ title: 'T'.repeat(200), note: 'mine' });
    expect('note' in titledSession(session, 'x')).toBe(false);
  });
});
