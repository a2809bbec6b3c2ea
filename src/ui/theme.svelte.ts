/**
 * Light, dark, or the system's choice. The choice is a `data-theme` attribute on <html>
 * (app.css maps it to `color-scheme`, which every colour follows through `light-dark()`),
 * kept in localStorage so it survives a reload.
 */

export type ThemeChoice = 'system' | 'light' | 'dark';

export const THEME_CHOICES: readonly ThemeChoice[] = ['system', 'light', 'dark'];

const KEY = 'slmcode.theme';

/** The parts of the page the theme touches (stand-ins in tests). */
export interface ThemeHost {
  readonly root: { setAttribute(name: string, value: string): void; removeAttribute(name: string): void };
  readonly storage: Pick<Storage, 'getItem' | 'setItem'> | null;
}

export class Theme {
  choice = $state<ThemeChoice>('system');

  constructor(private readonly host: ThemeHost) {
    const saved = readSaved(host.storage);
    if (saved) this.choice = saved;
    this.#apply();
  }

  set(choice: ThemeChoice): void {
    this.choice = choice;
    try {
      this.host.storage?.setItem(KEY, choice);
    } catch {
      // Storage can be full or disabled (private mode); the choice still holds for this page.
    }
    this.#apply();
  }

  #apply(): void {
    if (this.choice === 'system') this.host.root.removeAttribute('data-theme');
    else this.host.root.setAttribute('data-theme', this.choice);
  }
}

function readSaved(storage: ThemeHost['storage']): ThemeChoice | null {
  try {
    const v = storage?.getItem(KEY);
    return (THEME_CHOICES as readonly string[]).includes(v ?? '') ? (v as ThemeChoice) : null;
  } catch {
    return null;
  }
}
