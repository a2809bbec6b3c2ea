import type { Page } from '@playwright/test';

/**
 * The session the page saved for its latest run, read from IndexedDB as the sessions keeper
 * stores it; `T` is the part of the record the test reads.
 */
export async function latestSavedSession<T>(page: Page): Promise<T> {
  return page.evaluate(
    () =>
      new Promise<T>((resolve, reject) => {
        const open = indexedDB.open('slmcode-sessions');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const all = open.result.transaction('records').objectStore('records').getAll();
          all.onsuccess = () =>
            resolve(((all.result as { session?: unknown }[]).at(-1)?.session ?? all.result.at(-1)) as T);
          all.onerror = () => reject(all.error);
        };
      }),
  );
}
