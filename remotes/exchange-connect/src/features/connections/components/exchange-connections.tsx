import '../../../styles.css';
import { runtimeInstanceId } from '@kestrel/shared-runtime';
import { Badge, Button, Card, CardDescription, CardFooter, CardHeader, CardTitle } from '@kestrel/ui';

// Placeholder catalogue until the exchange state in shared-runtime arrives (spec §3)
const catalogue = [
  { id: 'binance', displayName: 'Binance', available: true },
  { id: 'coinbase', displayName: 'Coinbase Pro', available: false },
  { id: 'kraken', displayName: 'Kraken', available: false },
  { id: 'bybit', displayName: 'Bybit', available: false },
] as const;

/** The exchange card grid (used by settings and inside the connect modal) */
export default function ExchangeConnections() {
  return (
    <div
      data-remote="exchange_connect"
      data-runtime-instance={runtimeInstanceId}
      className="xc:grid xc:grid-cols-1 xc:gap-4 xc:sm:grid-cols-2"
    >
      {catalogue.map((exchange) => (
        <Card key={exchange.id}>
          <CardHeader>
            <CardTitle>{exchange.displayName}</CardTitle>
            <CardDescription>Rendered by the exchange_connect remote.</CardDescription>
          </CardHeader>
          <CardFooter className="xc:justify-between">
            <Badge variant={exchange.available ? 'success' : 'secondary'}>
              {exchange.available ? 'Available' : 'Coming Soon'}
            </Badge>
            <Button size="sm" disabled={!exchange.available}>
              {exchange.available ? 'Connect Exchange' : 'Coming Soon'}
            </Button>
          </CardFooter>
        </Card>
      ))}
    </div>
  );
}
