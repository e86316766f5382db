import { RouterProvider } from '@kestrel/shared-runtime/router';
import { useState } from 'react';
import { AppErrorBoundary } from './errors/error-boundaries';
import { RuntimeNotices } from './notices/runtime-notices';
import { createAppRouter } from './router';
import { ThemeProvider, useTheme } from './theme/theme-context';
import type { ThemeStore } from './theme/theme-store';

export function App({ themeStore }: { themeStore: ThemeStore }) {
  const [router] = useState(createAppRouter);
  return (
    <AppErrorBoundary>
      <ThemeProvider store={themeStore}>
        <RouterProvider router={router} />
        <ThemedNotices />
      </ThemeProvider>
    </AppErrorBoundary>
  );
}

/** Toasts follow the theme (spec §4) */
function ThemedNotices() {
  const { theme } = useTheme();
  return <RuntimeNotices theme={theme} />;
}
