import type { Session } from '@kestrel/contracts';
import { Badge, Button, formatDateTime } from '@kestrel/ui';
import { useState } from 'react';
import { FailureLine } from '../../../components/form-parts';
import { failureText } from '../../../lib/failure-text';
import { describeDevice } from '../lib/device';

/**
 * The account's live sessions (device from the user agent, IP, created, last used), this one marked. Revoke ends
 * one at once (its next request is refused); "Sign out all other sessions" ends every one but this
 */
export function SessionsList({
  sessions,
  onRevoke,
  onRevokeOthers,
}: {
  sessions: readonly Session[];
  onRevoke: (id: string) => Promise<unknown>;
  onRevokeOthers: () => Promise<{ sessionsEnded: number }>;
}) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const others = sessions.filter((s) => !s.current).length;

  const run = async (key: string, action: () => Promise<unknown>, fallback: string) => {
    setError(null);
    setBusy(key);
    try {
      await action();
    } catch (err) {
      setError(failureText(err, fallback));
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="ac:flex ac:flex-col ac:gap-3">
      <ul aria-label="Active sessions" className="ac:flex ac:flex-col ac:divide-y ac:divide-border">
        {sessions.map((s) => {
          const device = describeDevice(s.user_agent);
          return (
            <li
              key={s.id}
              aria-label={s.current ? `${device} (this device)` : device}
              className="ac:flex ac:flex-wrap ac:items-center ac:justify-between ac:gap-2 ac:py-2"
            >
              <div className="ac:flex ac:min-w-0 ac:flex-col ac:gap-0.5">
                <span className="ac:flex ac:items-center ac:gap-2 ac:font-medium">
                  {device}
                  {s.current && <Badge variant="secondary">This device</Badge>}
                </span>
                <span className="ac:text-xs ac:text-muted-foreground">
                  IP {s.ip ?? 'unknown'} · signed in {formatDateTime(Date.parse(s.created_at))} UTC · last
                  used {formatDateTime(Date.parse(s.last_used_at))} UTC
                </span>
              </div>
              {!s.current && (
                <Button
                  variant="outline"
                  size="sm"
                  disabled={busy !== null}
                  aria-label={`Revoke ${device}, signed in ${formatDateTime(Date.parse(s.created_at))} UTC`}
                  onClick={() => void run(s.id, () => onRevoke(s.id), 'The session could not be revoked')}
                >
                  {busy === s.id ? 'Revoking…' : 'Revoke'}
                </Button>
              )}
            </li>
          );
        })}
      </ul>
      <FailureLine message={error} />
      <div>
        <Button
          variant="outline"
          disabled={others === 0 || busy !== null}
          onClick={() => void run('others', onRevokeOthers, 'The other sessions could not be signed out')}
        >
          {busy === 'others' ? 'Signing out…' : 'Sign out all other sessions'}
        </Button>
      </div>
    </div>
  );
}
