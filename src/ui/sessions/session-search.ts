/**
 * Searching "Your sessions": a saved session matches when every word of the query is found,
 * ignoring case and accents, in its title, its task or its note. An empty query matches all.
 */
import type { SavedMeta } from '../../session/idb-store.ts';
import { TASK_LINE_CHARS, TITLE_CHARS } from '../../session/person-text.ts';
import type { Session } from '../../worker/client.ts';

/** Lower case without accents (`É` → `e`), so a search need not spell them. */
function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

/** The saved sessions whose title, task or note hold every word of `query`, in their order. */
export function searchSessions(saved: readonly SavedMeta[], query: string): readonly SavedMeta[] {
  const words = fold(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return saved;
  return saved.filter((m) => {
    const text = fold(`${m.title}\n${m.task ?? ''}\n${m.note ?? ''}`);
    return words.every((w) => text.includes(w));
  });
}

/** What the list keeps of a session for searching and carrying: its task (cut) and note, when it has them. */
export function searchFields(session: Pick<Session, 'task' | 'note'>, note?: string): Pick<SavedMeta, 'task' | 'note'> {
  const kept = note ?? session.note;
  return {
    task: session.task.slice(0, TASK_LINE_CHARS),
    ...(kept !== undefined && kept !== '' && { note: kept }),
  };
}

/** The record as a file or link carries it: with the list's title and note. */
export function titledSession(session: Session, title: string, note?: string): Session {
  const { note: _old, ...rest } = session;
  return { ...rest, title: title.slice(0, TITLE_CHARS), ...(note ? { note } : {}) };
}
