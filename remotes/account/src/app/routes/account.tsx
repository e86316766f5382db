import '../../styles.css';
import { RemotePage } from '@kestrel/shared-runtime/react';
import { Panel, PanelFailure, PanelLoading } from '@kestrel/ui/panel';
import {
  useAccountEvents,
  useChangePassword,
  useDeleteAccount,
  useMe,
  useRevokeOtherSessions,
  useRevokeSession,
  useSessions,
  useUpdateProfile,
} from '../../features/account/api/account-api';
import { AccountEvents } from '../../features/account/components/account-events';
import { DeleteAccount } from '../../features/account/components/delete-account';
import { PasswordForm } from '../../features/account/components/password-form';
import { ProfileForm } from '../../features/account/components/profile-form';
import { SessionsList } from '../../features/account/components/sessions-list';
import { useMarkAllRead, useNotifications } from '../../features/notifications/api/notifications-api';
import { NotificationList } from '../../features/notifications/components/notification-list';

/** The account: profile, password, the devices signed in, the audit of every change, and deleting it all */
export default function AccountPage() {
  const me = useMe();
  const sessions = useSessions();
  const events = useAccountEvents();
  const notifications = useNotifications();
  const markAllRead = useMarkAllRead();
  const updateProfile = useUpdateProfile();
  const changePassword = useChangePassword();
  const revoke = useRevokeSession();
  const revokeOthers = useRevokeOtherSessions();
  const deleteAccount = useDeleteAccount();

  return (
    <RemotePage
      remote="account"
      title="Account"
      description="Your profile, your password and the devices signed in to your account."
    >
      <div className="ac:grid ac:gap-4 ac:lg:grid-cols-2">
        <Panel id="account-profile" title="Profile">
          {me.isPending ? (
            <PanelLoading label="Loading your profile…" />
          ) : me.data ? (
            <ProfileForm user={me.data} onSave={updateProfile.mutateAsync} />
          ) : (
            <PanelFailure
              what="Your profile"
              message={me.error?.message ?? 'no answer'}
              onRetry={() => void me.refetch()}
            />
          )}
        </Panel>
        <Panel
          id="account-password"
          title="Password"
          description="Changing it signs out every other device signed in to your account."
        >
          <PasswordForm onChange={changePassword.mutateAsync} />
        </Panel>
        <Panel
          id="account-sessions"
          title="Active sessions"
          description="Every device signed in to your account. Revoke one you do not recognise."
          className="ac:lg:col-span-2"
        >
          {sessions.isPending ? (
            <PanelLoading label="Loading your sessions…" />
          ) : sessions.data ? (
            <SessionsList
              sessions={sessions.data}
              onRevoke={revoke.mutateAsync}
              onRevokeOthers={() => revokeOthers.mutateAsync(undefined)}
            />
          ) : (
            <PanelFailure
              what="Your sessions"
              message={sessions.error?.message ?? 'no answer'}
              onRetry={() => void sessions.refetch()}
            />
          )}
        </Panel>
        <Panel
          id="account-notifications"
          title="Notifications"
          description="What Kestrel told you about, newest first. Webhooks for them are in Settings."
          className="ac:lg:col-span-2"
        >
          {notifications.isPending ? (
            <PanelLoading label="Loading your notifications…" />
          ) : notifications.data ? (
            <NotificationList
              list={notifications.data}
              onReadAll={() => markAllRead.mutateAsync(undefined)}
            />
          ) : (
            <PanelFailure
              what="Your notifications"
              message={notifications.error?.message ?? 'no answer'}
              onRetry={() => void notifications.refetch()}
            />
          )}
        </Panel>
        <Panel
          id="account-activity"
          title="Account activity"
          description="Every sign-in and every change to your account, newest first."
          className="ac:lg:col-span-2"
        >
          {events.isPending ? (
            <PanelLoading label="Loading your account activity…" />
          ) : events.data ? (
            <AccountEvents events={events.data} />
          ) : (
            <PanelFailure
              what="Your account activity"
              message={events.error?.message ?? 'no answer'}
              onRetry={() => void events.refetch()}
            />
          )}
        </Panel>
        <Panel
          id="account-delete"
          title="Delete account"
          description="Stops every bot, deletes your stored exchange keys, your bots, backtests and history, and signs you out everywhere. This cannot be undone."
          className="ac:lg:col-span-2 ac:border-destructive"
        >
          <DeleteAccount onDelete={deleteAccount.mutateAsync} />
        </Panel>
      </div>
    </RemotePage>
  );
}
