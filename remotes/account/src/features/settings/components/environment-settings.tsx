import { useKestrelRuntime, useTradingEnvironment } from '@kestrel/shared-runtime/react';
import { Badge, Button, formatDateTime } from '@kestrel/ui';
import { useId, useState } from 'react';

const EXCHANGE_NAMES: Record<string, string> = {
  binance: 'Binance',
  coinbase: 'Coinbase Pro',
  kraken: 'Kraken',
  bybit: 'Bybit',
};

/**
 * The trading environment (spec §4): testnet, simulation with fake funds, or mainnet, LIVE trading with real money.
 * The same state as the top bar's switch (the runtime's, which also shows the spec's toast); going LIVE asks first.
 * The last 10 switches are listed, newest first
 */
export function EnvironmentSettings() {
  const { environment } = useKestrelRuntime();
  const { currentEnvironment, environmentHistory, targets } = useTradingEnvironment();
  const [confirming, setConfirming] = useState(false);
  const reasonId = useId();
  const live = currentEnvironment === 'mainnet';
  const other = targets?.find((t) => t.environment === (live ? 'testnet' : 'mainnet'));
  // An environment this server cannot reach is not offered: the page says why instead of failing on a click
  const unreachable = other && !other.configured ? (other.reason ?? 'Not available on this server') : null;
  const switchTo = (env: 'testnet' | 'mainnet') => environment.switchTo(env);
  const history = [...environmentHistory].reverse();

  return (
    <div className="ac:flex ac:flex-col ac:gap-3">
      <div className="ac:flex ac:flex-wrap ac:items-center ac:gap-3">
        {live ? (
          <Badge variant="destructive">Mainnet · LIVE trading with real money</Badge>
        ) : (
          <Badge variant="secondary">Testnet · simulation with fake funds</Badge>
        )}
        {live ? (
          <Button
            variant="outline"
            size="sm"
            disabled={unreachable !== null}
            aria-describedby={unreachable ? reasonId : undefined}
            onClick={() => switchTo('testnet')}
          >
            Switch to testnet
          </Button>
        ) : (
          !confirming && (
            <Button
              variant="outline"
              size="sm"
              disabled={unreachable !== null}
              aria-describedby={unreachable ? reasonId : undefined}
              onClick={() => setConfirming(true)}
            >
              Switch to mainnet
            </Button>
          )
        )}
      </div>
      {unreachable && (
        <p id={reasonId} className="ac:text-sm ac:text-muted-foreground">
          {unreachable}
        </p>
      )}
      {confirming && !live && (
        <div
          role="alertdialog"
          aria-labelledby="settings-mainnet-title"
          className="ac:flex ac:flex-col ac:gap-2 ac:rounded-lg ac:border ac:border-destructive ac:bg-destructive/10 ac:p-3"
        >
          <p id="settings-mainnet-title" className="ac:text-sm ac:font-medium">
            Switch to LIVE trading? On mainnet your bots and orders trade with real money on your exchange
            account.
          </p>
          <div className="ac:flex ac:flex-wrap ac:gap-2">
            <Button variant="outline" size="sm" onClick={() => setConfirming(false)}>
              Stay on testnet
            </Button>
            <Button
              variant="destructive"
              size="sm"
              onClick={() => {
                setConfirming(false);
                switchTo('mainnet');
              }}
            >
              Confirm: switch to mainnet
            </Button>
          </div>
        </div>
      )}
      <h3 className="ac:text-sm ac:font-semibold">Recent switches</h3>
      {history.length === 0 ? (
        <p className="ac:text-sm ac:text-muted-foreground">No switch yet: you are on the default, testnet.</p>
      ) : (
        <ol
          aria-label="Environment history"
          className="ac:flex ac:flex-col ac:divide-y ac:divide-border ac:text-sm"
        >
          {history.map((h) => (
            <li
              key={`${h.timestamp}-${h.environment}`}
              className="ac:flex ac:flex-wrap ac:justify-between ac:gap-2 ac:py-1.5"
            >
              <span>{h.environment === 'mainnet' ? 'Mainnet (LIVE)' : 'Testnet'}</span>
              <span className="ac:text-xs ac:text-muted-foreground">
                {formatDateTime(h.timestamp)} UTC
                {h.exchangeId ? ` · ${EXCHANGE_NAMES[h.exchangeId] ?? h.exchangeId}` : ''}
              </span>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
