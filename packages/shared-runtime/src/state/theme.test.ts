import { beforeEach, describe, expect, it } from 'vitest';
import { createThemeStore } from './theme';

/** A prefers-color-scheme media query whose answer the test changes */
function systemPreference(prefersLight: boolean) {
  const listeners = new Set<(e: { matches: boolean }) => void>();
  const media = {
    matches: prefersLight,
    addEventListener: (_: string, l: (e: { matches: boolean }) => void) => listeners.add(l),
    removeEventListener: (_: string, l: (e: { matches: boolean }) => void) => listeners.delete(l),
    change(next: boolean) {
      media.matches = next;
      for (const l of listeners) l({ matches: next });
    },
  };
  return media;
}

describe('theme (spec §4)', () => {
  beforeEach(() => {
    localStorage.clear();
    document.documentElement.className = '';
  });
  const make = (prefersLight: boolean) => {
    const media = systemPreference(prefersLight);
    const store = createThemeStore({
      storage: localStorage,
      prefersLight: media as unknown as MediaQueryList,
      root: document.documentElement,
    });
    return { store, media };
  };

  it('starts from the stored choice under kestrel-theme', () => {
    localStorage.setItem('kestrel-theme', 'dark');
    const { store } = make(true);
    expect(store.get()).toBe('dark');
    expect(document.documentElement.classList.contains('dark')).toBe(true);
  });

  it('with nothing stored follows the system: light when it prefers light, dark otherwise', () => {
    expect(make(true).store.get()).toBe('light');
    expect(document.documentElement.classList.contains('dark')).toBe(false);
    expect(make(false).store.get()).toBe('dark');
    expect(document.documentElement.classList.contains('dark')).toBe(true);
  });

  it('toggle switches, stores the choice and sets the dark marker on the root', () => {
    const { store } = make(true);
    store.toggle();
    expect(store.get()).toBe('dark');
    expect(localStorage.getItem('kestrel-theme')).toBe('dark');
    expect(document.documentElement.classList.contains('dark')).toBe(true);
    store.toggle();
    expect(localStorage.getItem('kestrel-theme')).toBe('light');
    expect(document.documentElement.classList.contains('dark')).toBe(false);
  });

  it('applies system changes only while nothing is stored', () => {
    const { store, media } = make(true);
    media.change(false);
    expect(store.get()).toBe('dark');
    store.set('light');
    media.change(false);
    expect(store.get()).toBe('light');
  });

  it('ignores a stored value that is not light or dark', () => {
    localStorage.setItem('kestrel-theme', 'purple');
    expect(make(false).store.get()).toBe('dark');
  });
});
