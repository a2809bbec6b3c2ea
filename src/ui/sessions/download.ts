/**
 * Files out of the page: the file form of a session record as text, file names made from
 * titles, and the download itself (a Blob URL clicked through a detached link, revoked right
 * after).
 */
import type { Session } from '../../worker/client.ts';

/** The file form: the whole record, pretty-printed, as `slm replay` and the import read it. */
export function sessionFileText(session: Session): string {
  return `${JSON.stringify(session, null, 2)}\n`;
}

/** A title as a file name's stem: `tiny-utils (starter) · scripted: Fix…` → `tiny-utils-starter-scripted-fix`; `fallback` when nothing is left. */
export function fileStem(title: string, fallback: string): string {
  const slug = title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '') // the accents NFKD split off: é → e
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug || fallback;
}

/** `tiny-utils (starter) · scripted: Fix…` → `tiny-utils-starter-scripted-fix.session.json`. */
export function sessionFileName(title: string): string {
  return `${fileStem(title, 'session')}.session.json`;
}

/** Saves `text` as a file named `name` through the browser's download. */
export function downloadText(doc: Document, name: string, text: string): void {
  downloadBlob(doc, name, new Blob([text], { type: 'application/json' }));
}

/** Saves `blob` as a file named `name` through the browser's download. */
export function downloadBlob(doc: Document, name: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = doc.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  // The click has started the download; the URL is no longer needed.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
