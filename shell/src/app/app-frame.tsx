import { useTheme } from '@kestrel/shared-runtime/react';
import type { ReactNode } from 'react';
import { AppErrorBoundary } from './errors/error-boundaries';
import { RuntimeNotices } from './notices/runtime-notices';

/**
 * Around every page: the whole-app error screen and the notice areas. The same element at the root whether the
 * page is the router's or the cold landing (`cold-landing.tsx`), so toasts on screen stay when the router takes over.
 */
export function AppFrame({ children }: { children: ReactNode }) {
  return (
    <AppErrorBoundary>
      {children}
      <ThemedNotices />
    </AppErrorBoundary>
  );
}

/** Toasts follow the theme (spec §4) */
function ThemedNotices() {
  const { theme } = useTheme();
  return <RuntimeNotices theme={theme} />;
}
