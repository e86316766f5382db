import { getKestrelRuntime } from '@kestrel/shared-runtime';
import { useSession } from '@kestrel/shared-runtime/react';
import { useNavigate } from '@kestrel/shared-runtime/router';
import { Button } from '@kestrel/ui';
import { forgetConnectPromptSkips } from '../auth/connect-exchange-prompt';

/** Who is signed in, and sign-out (which always clears local data, even when the server is unreachable) */
export function UserMenu() {
  const session = useSession();
  const navigate = useNavigate();
  if (session.status !== 'signed-in' || !session.user) return null;
  const signOut = async () => {
    await getKestrelRuntime().session.logout();
    forgetConnectPromptSkips();
    navigate('/', { replace: true });
  };
  return (
    <div className="sh:flex sh:items-center sh:gap-3">
      <span className="sh:hidden sh:text-sm sh:sm:inline" title={session.user.email}>
        {session.user.name ?? session.user.email}
      </span>
      <Button variant="outline" size="sm" onClick={signOut}>
        Sign out
      </Button>
    </div>
  );
}
