import '../../styles.css';
import { ConnectExchangeButton } from '@kestrel/shared-runtime/federation';
import {
  RemotePage,
  useExchangeConnections,
  useExchangesLoading,
  useKestrelRuntime,
} from '@kestrel/shared-runtime/react';
import { EmptyState } from '@kestrel/ui';
import { Panel, PanelFailure, PanelLoading } from '@kestrel/ui/panel';
import { useSymbolPrecisions } from '../../api/get-symbol-info';
import { useBotsSummary } from '../../features/overview/api/get-bots-summary';
import { useRiskEvents } from '../../features/risk/api/get-risk-events';
import { useRiskLimits } from '../../features/risk/api/get-risk-limits';
import { useRiskOverview } from '../../features/risk/api/get-risk-overview';
import { useKillSwitch } from '../../features/risk/api/trigger-kill-switch';
import { useUpdateRiskLimits } from '../../features/risk/api/update-risk-limits';
import { ExposureChart } from '../../features/risk/components/exposure-chart';
import { KillSwitch } from '../../features/risk/components/kill-switch';
import { LimitUsageList } from '../../features/risk/components/limit-usage';
import { LimitsForm } from '../../features/risk/components/limits-form';
import { RiskCards } from '../../features/risk/components/risk-cards';
import { RiskEvents } from '../../features/risk/components/risk-events';
import { RiskPositionsTable } from '../../features/risk/components/risk-positions-table';

/**
 * Risk management: margin ratio, leverage, distance to liquidation, exposure and VaR of the connected account;
 * the limits the server checks before every order; the kill switch; the risk audit
 */
export default function RiskPage() {
  const { notices } = useKestrelRuntime();
  const connections = useExchangeConnections();
  const exchangesLoading = useExchangesLoading();
  const connected = Object.values(connections).some((c) => c.status === 'connected');

  const overview = useRiskOverview(connected);
  const limits = useRiskLimits();
  const events = useRiskEvents();
  const saveLimits = useUpdateRiskLimits();
  const killSwitch = useKillSwitch();
  // The kill switch stops every running bot of the user first: the confirmation names them
  const bots = useBotsSummary();
  const runningBots = (bots.data?.bots ?? [])
    .filter((b) => b.state === 'running' || b.state === 'starting')
    .map((b) => b.name);
  const symbols = [...new Set(overview.data?.positions.map((p) => p.symbol) ?? [])];
  const precisions = useSymbolPrecisions(symbols);

  const o = overview.data;
  const figures = !connected ? (
    exchangesLoading ? (
      <PanelLoading label="Loading your exchange connection…" />
    ) : (
      <EmptyState
        title="No exchange connected"
        description="Connect your Binance account to see margin, leverage, liquidation distance and exposure here."
        action={<ConnectExchangeButton />}
      />
    )
  ) : overview.isPending ? (
    <PanelLoading label="Loading your risk figures…" />
  ) : !o ? (
    <PanelFailure
      what="Your risk figures"
      message={overview.error?.message ?? 'no answer'}
      onRetry={() => void overview.refetch()}
    />
  ) : null;

  return (
    <RemotePage
      remote="dashboard"
      title="Risk management"
      description="Limits the server checks before every order, and how close the account is to them."
    >
      <div className="db:flex db:flex-col db:gap-4">
        {o?.halted && (
          <p
            role="alert"
            className="db:rounded-xl db:border db:border-destructive db:bg-destructive/10 db:p-3 db:text-sm db:text-destructive"
          >
            {o.halted}
          </p>
        )}
        {figures}
        {o && (
          <>
            <RiskCards overview={o} />
            <div className="db:grid db:items-start db:gap-4 db:lg:grid-cols-2">
              <Panel id="risk-limit-usage" title="Limits" description="How close each limit is to breaking">
                <LimitUsageList usage={o.usage} />
              </Panel>
              <Panel
                id="risk-kill-switch"
                title="Kill switch"
                description="Cancel every order and close every position at market, now"
              >
                <KillSwitch
                  openOrders={o.openOrders}
                  openPositions={o.positions.length}
                  runningBots={runningBots}
                  pending={killSwitch.isPending}
                  result={killSwitch.data}
                  error={killSwitch.error?.message}
                  onConfirm={() => killSwitch.mutate()}
                />
              </Panel>
            </div>
            <Panel
              id="risk-positions"
              title="Positions"
              description="Distance to liquidation in % of the mark price and in ATR(14) of 1-hour candles"
            >
              {o.positions.length === 0 ? (
                <EmptyState
                  title="No exposure yet"
                  description="Open positions and their risk will show here."
                />
              ) : (
                <RiskPositionsTable positions={o.positions} precisions={precisions} />
              )}
            </Panel>
          </>
        )}
        <div className="db:grid db:items-start db:gap-4 db:lg:grid-cols-2">
          {o && (
            <Panel id="risk-exposure" title="Exposure" description="Open notional by symbol and direction">
              <ExposureChart exposure={o.exposure} />
            </Panel>
          )}
          <Panel
            id="risk-limits"
            title="Account limits"
            description="Checked by the server before every order. Orders that only reduce exposure always pass."
            className={o ? undefined : 'db:lg:col-span-2'}
          >
            {limits.data ? (
              <LimitsForm
                limits={limits.data}
                onSave={async (next) => {
                  await saveLimits.mutateAsync(next);
                  notices.toast({ title: 'Risk limits saved', variant: 'default' });
                }}
              />
            ) : limits.isPending ? (
              <PanelLoading label="Loading your limits…" />
            ) : (
              <PanelFailure
                what="Your limits"
                message={limits.error?.message ?? 'no answer'}
                onRetry={() => void limits.refetch()}
              />
            )}
          </Panel>
        </div>
        <Panel
          id="risk-events"
          title="Risk events"
          description="Refused orders, limit changes and kill switches"
        >
          {events.data ? (
            <RiskEvents events={events.data} />
          ) : events.isPending ? (
            <PanelLoading label="Loading risk events…" />
          ) : (
            <PanelFailure
              what="Risk events"
              message={events.error?.message ?? 'no answer'}
              onRetry={() => void events.refetch()}
            />
          )}
        </Panel>
      </div>
    </RemotePage>
  );
}
