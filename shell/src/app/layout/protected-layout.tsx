import { RequireAuth } from '../auth/require-auth';
import { DashboardLayout } from './dashboard-layout';

/** Every signed-in page: the spec's protected route behaviour around the dashboard layout */
export function ProtectedLayout() {
  return (
    <RequireAuth>
      <DashboardLayout />
    </RequireAuth>
  );
}
