/** The theme switch: the attribute on <html>, kept across reloads, and a broken storage tolerated. */
import { describe, expect, it } from 'vitest';
import { Theme, type ThemeHost } from './theme.svelte.ts';

function host(
  saved: string | null,
  storageWorks = true,
): ThemeHost & { attr: () => string | null; stored: () => string | null } {
  let attr: string | null = null;
  let stored = saved;
  return {
    root: { setAttribute: (_n, v) => void (attr = v), removeAttribute: () => void (attr = null) },
    storage: {
      getItem: () => {
        if (!storageWorks) throw new Error('denied');
        return stored;
      },
      setItem: (_k, v) => {
        if (!storageWorks) throw new Error('denied');
        stored = v;
      },
    },
    attr: () => attr,
    stored: () => stored,
  };
}

describe('Theme', () => {
  it.each([
    [null, 'system', null],
    ['dark', 'dark', 'dark'],
    ['light', 'light', 'light'],
    ['purple', 'system', null],
  ])('saved %s → %s (data-theme %s)', (saved, choice, attr) => {
    const h = host(saved);
    expect(new Theme(h).choice).toBe(choice);
    expect(h.attr()).toBe(attr);
  });

  it('set applies and saves the choice; system removes the attribute', () => {
    const h = host(null);
    const theme = new Theme(h);
    theme.set('dark');
    expect([h.attr(), h.stored()]).toEqual(['dark', 'dark']);
    theme.set('system');
    expect([h.attr(), h.stored()]).toEqual([null, 'system']);
  });

  it('works for the page when storage refuses', () => {
    const h = host(null, false);
    const theme = new Theme(h);
    theme.set('light');
    expect(theme.choice).toBe('light');
    expect(h.attr()).toBe('light');
  });
});
