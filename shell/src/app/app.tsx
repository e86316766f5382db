import { createQueryClient } from '@kestrel/shared-runtime/react';
import { RouterProvider } from '@kestrel/shared-runtime/router';
import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { AppErrorBoundary } from './errors/error-boundaries';
import { RuntimeNotices } from './notices/notices';
import { createAppRouter } from './router';
import { ThemeProvider, useTheme } from './theme/theme-context';
import type { ThemeStore } from './theme/theme-store';

export function App({ themeStore }: { themeStore: ThemeStore }) {
  const [router] = useState(createAppRouter);
  const [queryClient] = useState(createQueryClient);
  return (
    <AppErrorBoundary>
      <ThemeProvider store={themeStore}>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
          <ThemedNotices />
        </QueryClientProvider>
      </ThemeProvider>
    </AppErrorBoundary>
  );
}

/** Toasts follow the theme (spec §4) */
function ThemedNotices() {
  const { theme } = useTheme();
  return <RuntimeNotices theme={theme} />;
}
