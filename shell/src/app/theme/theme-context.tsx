import { createContext, type ReactNode, useContext, useSyncExternalStore } from 'react';
import type { Theme, ThemeStore } from './theme-store';

const ThemeContext = createContext<ThemeStore | null>(null);

export function ThemeProvider({ store, children }: { store: ThemeStore; children: ReactNode }) {
  return <ThemeContext.Provider value={store}>{children}</ThemeContext.Provider>;
}

/** The current theme and the toggle; re-renders on every change */
export function useTheme(): { theme: Theme; toggle: () => void } {
  const store = useContext(ThemeContext);
  if (!store) throw new Error('useTheme must be used inside <ThemeProvider>');
  const theme = useSyncExternalStore(store.subscribe, store.get, store.get);
  return { theme, toggle: store.toggle };
}
