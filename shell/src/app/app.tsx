import { useTheme } from '@kestrel/shared-runtime/react';
import { RouterProvider } from '@kestrel/shared-runtime/router';
import { useState } from 'react';
import { AppErrorBoundary } from './errors/error-boundaries';
import { RuntimeNotices } from './notices/runtime-notices';
import { createAppRouter } from './router';

export function App() {
  const [router] = useState(createAppRouter);
  return (
    <AppErrorBoundary>
      <RouterProvider router={router} />
      <ThemedNotices />
    </AppErrorBoundary>
  );
}

/** Toasts follow the theme (spec §4) */
function ThemedNotices() {
  const { theme } = useTheme();
  return <RuntimeNotices theme={theme} />;
}
