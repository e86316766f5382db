import { createQueryClient } from '@kestrel/shared-runtime/query';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { RequireAuth } from '../auth/require-auth';
import { DashboardLayout } from './dashboard-layout';

/**
 * One query cache for the page, created on the first signed-in page: only signed-in pages (their remotes) query,
 * so the public pages do not load TanStack Query. Module-level, so the cache outlives a visit to a public page.
 */
let queryClient: ReturnType<typeof createQueryClient> | undefined;

/** Every signed-in page: the spec's protected route behaviour around the dashboard layout */
export function ProtectedLayout() {
  const { live, environment } = useKestrelRuntime();
  // Queries under the live key prefixes follow the socket: notices, polling while paused, one refetch on resume
  // A switch of trading environment empties it: every page then reads the new environment's account
  queryClient ??= createQueryClient({ live, environment });
  return (
    <QueryClientProvider client={queryClient}>
      <RequireAuth>
        <DashboardLayout />
      </RequireAuth>
    </QueryClientProvider>
  );
}
