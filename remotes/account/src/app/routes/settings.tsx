import '../../styles.css';
import { RemoteSlot } from '@kestrel/shared-runtime/federation';
import { RemotePage } from '@kestrel/shared-runtime/react';
import { Panel, QueryState } from '@kestrel/ui/panel';
import { useAccountSettings, useUpdateAccountSettings } from '../../features/account/api/account-api';
import { WebhooksCard } from '../../features/notifications/components/webhooks-card';
import { PlatformPanel } from '../../features/platform/components/platform-panel';
import { DefaultLimitsForm } from '../../features/settings/components/default-limits-form';
import { EnvironmentSettings } from '../../features/settings/components/environment-settings';
import { ThemeSettings } from '../../features/settings/components/theme-settings';

export default function SettingsPage() {
  const settings = useAccountSettings();
  const save = useUpdateAccountSettings();
  return (
    <RemotePage remote="account" title="Settings">
      <div className="ac:flex ac:flex-col ac:gap-4">
        <section aria-labelledby="settings-exchanges" className="ac:flex ac:flex-col ac:gap-3">
          <h2 id="settings-exchanges" className="ac:text-lg ac:font-semibold">
            Exchange connections
          </h2>
          {/* Composed through the federation runtime, never by importing the other remote's source */}
          <RemoteSlot remote="exchange_connect" module="./ExchangeConnections" title="Exchange connections" />
        </section>
        <Panel
          id="settings-environment"
          title="Trading environment"
          description="Testnet trades with fake funds; mainnet is LIVE trading with real money."
        >
          <EnvironmentSettings />
        </Panel>
        <Panel
          id="settings-theme"
          title="Theme"
          description="The same choice as the sun/moon button in the top bar, remembered on this browser."
        >
          <ThemeSettings />
        </Panel>
        <Panel
          id="settings-bot-limits"
          title="Default limits for new bots"
          description="Each new bot starts with these limits of its own, checked by the server before every order it places, on top of your account limits."
        >
          <QueryState query={settings} what="Your settings" loading="Loading your settings…">
            {(data) => (
              <DefaultLimitsForm
                settings={data}
                onSave={(defaultBotRiskLimits) => save.mutateAsync({ defaultBotRiskLimits })}
              />
            )}
          </QueryState>
        </Panel>
        <Panel
          id="settings-notifications"
          title="Notifications"
          description="Webhooks: a signed POST to your address when something happens (retried for about 10 minutes if it fails)."
        >
          <WebhooksCard />
        </Panel>
        <Panel
          id="settings-platform"
          title="Platform"
          description="Which build of each part of Kestrel this page runs, where it came from and how it loaded."
        >
          <PlatformPanel />
        </Panel>
      </div>
    </RemotePage>
  );
}
