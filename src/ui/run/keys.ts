/**
 * The keys that step through a run: ←/→ and k/j one step, Home/End the first and the last.
 * The timeline applies them when it has focus, the run page when nothing that takes keys has.
 */

/** What the keys move. */
export interface Steppable {
  move(delta: number): void;
  selectFirst(): void;
  selectLast(): void;
}

/** Applies `key`; true when it was a stepping key (the caller then prevents the default). */
export function stepKey(target: Steppable, key: string): boolean {
  switch (key) {
    case 'ArrowLeft':
    case 'ArrowUp':
    case 'k':
      target.move(-1);
      return true;
    case 'ArrowRight':
    case 'ArrowDown':
    case 'j':
      target.move(1);
      return true;
    case 'Home':
      target.selectFirst();
      return true;
    case 'End':
      target.selectLast();
      return true;
    default:
      return false;
  }
}

/** Elements whose own keys win: fields, selects, code views, the timeline. */
const TAKES_KEYS = 'input, textarea, select, [contenteditable], .cm-editor, [role="listbox"], [role="radiogroup"]';

/** True when a page-level key press may step: the focus is on nothing that uses the arrows itself. */
export function pageMayStep(target: EventTarget | null): boolean {
  const el = target as { closest?: (sel: string) => unknown } | null;
  return !el?.closest?.(TAKES_KEYS);
}
