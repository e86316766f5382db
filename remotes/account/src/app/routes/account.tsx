import '../../styles.css';
import { RemotePage } from '@kestrel/shared-runtime/react';
import { Panel, QueryState } from '@kestrel/ui/panel';
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
import { TelegramCard } from '../../features/notifications/components/telegram-card';

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
          <QueryState query={me} what="Your profile" loading="Loading your profile…">
            {(data) => <ProfileForm user={data} onSave={updateProfile.mutateAsync} />}
          </QueryState>
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
          <QueryState query={sessions} what="Your sessions" loading="Loading your sessions…">
            {(data) => (
              <SessionsList
                sessions={data}
                onRevoke={revoke.mutateAsync}
                onRevokeOthers={() => revokeOthers.mutateAsync(undefined)}
              />
            )}
          </QueryState>
        </Panel>
        <Panel
          id="account-notifications"
          title="Notifications"
          description="What Kestrel told you about, newest first. Webhooks for them are in Settings."
          className="ac:lg:col-span-2"
        >
          <QueryState query={notifications} what="Your notifications" loading="Loading your notifications…">
            {(data) => <NotificationList list={data} onReadAll={() => markAllRead.mutateAsync(undefined)} />}
          </QueryState>
        </Panel>
        <Panel
          id="account-telegram"
          title="Telegram"
          description="The server's Telegram bot tells a chat of yours about the events you choose, and answers its commands."
          className="ac:lg:col-span-2"
        >
          <TelegramCard />
        </Panel>
        <Panel
          id="account-activity"
          title="Account activity"
          description="Every sign-in and every change to your account, newest first."
          className="ac:lg:col-span-2"
        >
          <QueryState query={events} what="Your account activity" loading="Loading your account activity…">
            {(data) => <AccountEvents events={data} />}
          </QueryState>
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
