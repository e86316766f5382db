import {
  CONNECTION_STATUS_LABELS,
  type ExchangeCatalogueEntry,
  type ExchangeConnection,
} from '@kestrel/shared-runtime';
import {
  Badge,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
} from '@kestrel/ui';
import { type ReactNode, useId, useState } from 'react';
import { StatusIcon } from './status-icon';

export type ExchangeCardProps = {
  exchange: ExchangeCatalogueEntry;
  connection: ExchangeConnection;
  onConnect: () => void;
  onDisconnect: () => void;
  /**
   * Asks the server whether the stored keys still reach the exchange; resolves with its answer to show, or null
   * when the check itself failed (the runtime toasts why)
   */
  onCheckConnection?: () => Promise<string | null>;
  /** What the connected key may do (shown while connected) */
  keyDetails?: ReactNode;
};

/** Spec §2 "Exchange card": the badge, status, error and button follow the connection's state */
export function ExchangeCard({
  exchange,
  connection,
  onConnect,
  onDisconnect,
  onCheckConnection,
  keyDetails,
}: ExchangeCardProps) {
  const titleId = useId();
  const [checking, setChecking] = useState(false);
  const [checkAnswer, setCheckAnswer] = useState<string | null>(null);
  const check = async () => {
    if (!onCheckConnection) return;
    setChecking(true);
    setCheckAnswer(null);
    try {
      setCheckAnswer(await onCheckConnection());
    } finally {
      setChecking(false);
    }
  };
  const { status, error, lastConnected } = connection;
  const connected = status === 'connected';
  const badge = exchange.comingSoon ? 'Coming Soon' : connected ? 'Active' : 'Available';
  return (
    <Card
      role="article"
      aria-labelledby={titleId}
      data-exchange={exchange.id}
      className={exchange.comingSoon ? 'xc:opacity-75' : undefined}
    >
      <CardHeader className="xc:grid-cols-[auto_1fr_auto] xc:items-center xc:gap-3">
        {exchange.logo ? (
          <img src={exchange.logo} alt="" className="xc:size-10 xc:rounded-full" />
        ) : (
          <span
            aria-hidden="true"
            className="xc:flex xc:size-10 xc:items-center xc:justify-center xc:rounded-full xc:bg-primary xc:font-semibold xc:text-primary-foreground"
          >
            {exchange.displayName.charAt(0)}
          </span>
        )}
        <CardTitle id={titleId}>{exchange.displayName}</CardTitle>
        <Badge variant={connected ? 'success' : exchange.comingSoon ? 'secondary' : 'outline'}>{badge}</Badge>
        <CardDescription className="xc:col-span-3">{exchange.description}</CardDescription>
      </CardHeader>
      <CardContent className="xc:flex xc:flex-col xc:gap-3">
        <ul aria-label="Features" className="xc:grid xc:grid-cols-2 xc:gap-1 xc:text-sm">
          {exchange.features.map((feature) => (
            <li key={feature} className="xc:flex xc:items-center xc:gap-1.5">
              <span aria-hidden="true" className="xc:size-1.5 xc:rounded-full xc:bg-primary" />
              {feature}
            </li>
          ))}
        </ul>
        <p className="xc:flex xc:items-center xc:gap-2 xc:text-sm" data-status={status}>
          <StatusIcon status={exchange.isAvailable ? status : 'unavailable'} />
          <span>Status: {exchange.isAvailable ? CONNECTION_STATUS_LABELS[status] : 'Not yet supported'}</span>
        </p>
        {error && (
          <div
            role="alert"
            className="xc:rounded-md xc:border xc:border-destructive xc:px-3 xc:py-2 xc:text-sm xc:text-destructive"
          >
            <p className="xc:font-medium">Connection Error</p>
            <p>{error}</p>
          </div>
        )}
        {connected && keyDetails}
        {connected && checkAnswer && (
          <p role="status" className="xc:text-sm">
            {checkAnswer}
          </p>
        )}
        {lastConnected !== null && (
          <p className="xc:text-xs xc:text-muted-foreground">
            Last connected:{' '}
            <time dateTime={new Date(lastConnected).toISOString()}>
              {new Date(lastConnected).toLocaleString()}
            </time>
          </p>
        )}
      </CardContent>
      <CardFooter>
        {exchange.comingSoon ? (
          <Button className="xc:w-full" variant="secondary" disabled>
            Coming Soon
          </Button>
        ) : connected ? (
          <div className="xc:flex xc:w-full xc:gap-2">
            {onCheckConnection && (
              <Button className="xc:flex-1" variant="secondary" disabled={checking} onClick={check}>
                {checking ? 'Checking...' : 'Check Connection'}
              </Button>
            )}
            <Button className="xc:flex-1" variant="outline" onClick={onDisconnect}>
              Disconnect
            </Button>
          </div>
        ) : (
          <Button
            className="xc:w-full"
            disabled={status === 'connecting' || !exchange.isAvailable}
            onClick={onConnect}
          >
            Connect Exchange
          </Button>
        )}
      </CardFooter>
    </Card>
  );
}
