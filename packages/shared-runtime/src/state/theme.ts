import { STORAGE_KEYS } from '../storage/storage';

/** Spec §3: the theme choice is stored under a product-specific key, with values light and dark */
export const THEME_STORAGE_KEY = STORAGE_KEYS.theme;

export type Theme = 'light' | 'dark';

export type ThemeStore = {
  get: () => Theme;
  /** Switches light ↔ dark and stores the choice */
  toggle: () => void;
  set: (theme: Theme) => void;
  subscribe: (listener: () => void) => () => void;
  dispose: () => void;
};

export type ThemeStoreDeps = {
  storage: Pick<Storage, 'getItem' | 'setItem'>;
  /** `matchMedia('(prefers-color-scheme: light)')` */
  prefersLight: Pick<MediaQueryList, 'matches' | 'addEventListener' | 'removeEventListener'>;
  /** Where the `dark` marker goes: the document root */
  root: { classList: Pick<DOMTokenList, 'toggle'> };
};

function readStored(storage: ThemeStoreDeps['storage']): Theme | null {
  try {
    const value = storage.getItem(THEME_STORAGE_KEY);
    return value === 'light' || value === 'dark' ? value : null;
  } catch {
    return null; // storage blocked (private mode, policy): fall back to the system preference
  }
}

/**
 * The page's system preference and document root; away from a browser (Node tests) the system prefers light and
 * there is no root to mark
 */
export function browserThemeDeps(storage: ThemeStoreDeps['storage']): ThemeStoreDeps {
  const media = globalThis.matchMedia?.('(prefers-color-scheme: light)');
  return {
    storage,
    prefersLight: media ?? { matches: true, addEventListener: () => {}, removeEventListener: () => {} },
    root: globalThis.document?.documentElement ?? { classList: { toggle: () => false } },
  };
}

/**
 * The page's one theme: the shell's top-bar toggle and the settings page both change it through the runtime
 * (`runtime.theme`, `useTheme`).
 *
 * Spec §4 (Theme): initial value from storage, else light when the system prefers light and dark otherwise; every
 * change is stored and sets or clears `dark` on the root; system changes apply only while nothing is stored.
 */
export function createThemeStore({ storage, prefersLight, root }: ThemeStoreDeps): ThemeStore {
  const listeners = new Set<() => void>();
  let theme: Theme = readStored(storage) ?? (prefersLight.matches ? 'light' : 'dark');

  const apply = (next: Theme) => {
    theme = next;
    root.classList.toggle('dark', next === 'dark');
    for (const listener of listeners) listener();
  };

  const onSystemChange = (event: { matches: boolean }) => {
    if (readStored(storage) === null) apply(event.matches ? 'light' : 'dark');
  };

  apply(theme);
  prefersLight.addEventListener('change', onSystemChange);

  const set = (next: Theme) => {
    try {
      storage.setItem(THEME_STORAGE_KEY, next);
    } catch {
      // Not persisted, but the page still switches
    }
    apply(next);
  };

  return {
    get: () => theme,
    set,
    toggle: () => set(theme === 'dark' ? 'light' : 'dark'),
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dispose: () => prefersLight.removeEventListener('change', onSystemChange),
  };
}
