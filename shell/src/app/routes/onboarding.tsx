import { useExchangeConnections, useSession } from '@kestrel/shared-runtime/react';
import { Link } from '@kestrel/shared-runtime/router';
import { Badge, Button, Card, CardContent, CardHeader, CardTitle } from '@kestrel/ui';
import type { ReactNode } from 'react';

type Step = { title: string; done: boolean; body: ReactNode; action: ReactNode };

/** Walks a new user through account → connect Binance → first bot, showing which steps are already done */
export function OnboardingPage() {
  const session = useSession();
  const { binance } = useExchangeConnections();
  const signedIn = session.status === 'signed-in';
  const connected = binance.status === 'connected';

  const steps: Step[] = [
    {
      title: 'Create your account',
      done: signedIn,
      body: 'An email and a password of 8 characters or more. Your account lives on this Kestrel server only.',
      action: signedIn ? null : (
        <Button asChild size="sm">
          <Link to="/">Create an account</Link>
        </Button>
      ),
    },
    {
      title: 'Connect Binance',
      done: connected,
      body: (
        <ol className="sh:list-disc sh:space-y-1 sh:pl-5">
          <li>In Binance, open API Management and create an API key.</li>
          <li>Enable Futures. Leave withdrawals disabled: Kestrel refuses keys that can withdraw.</li>
          <li>Restrict the key to this server's IP address.</li>
          <li>
            In Kestrel, open Settings and choose Connect Exchange, then paste the API key and secret key.
          </li>
        </ol>
      ),
      action: signedIn ? (
        <Button asChild size="sm" variant={connected ? 'outline' : 'default'}>
          <Link to="/settings">{connected ? 'Manage connection' : 'Open Settings'}</Link>
        </Button>
      ) : null,
    },
    {
      title: 'Start your first bot',
      done: false,
      body: 'Pick a grid, DCA or signal strategy, backtest it on past prices with fees and funding, then run it on testnet before real money.',
      action: signedIn ? (
        <div className="sh:flex sh:gap-2">
          <Button asChild size="sm" variant="outline">
            <Link to="/backtesting">Backtest</Link>
          </Button>
          <Button asChild size="sm">
            <Link to="/create-bot">Create a bot</Link>
          </Button>
        </div>
      ) : null,
    },
  ];

  return (
    <main className="sh:mx-auto sh:flex sh:min-h-dvh sh:max-w-3xl sh:flex-col sh:justify-center sh:gap-6 sh:p-6">
      <div className="sh:flex sh:flex-col sh:gap-2">
        <h1 className="sh:text-3xl sh:font-bold">Getting started with Kestrel</h1>
        <p className="sh:text-muted-foreground">Three steps from a new account to a running bot.</p>
      </div>
      <ol aria-label="Getting started steps" className="sh:flex sh:flex-col sh:gap-4">
        {steps.map((step, i) => (
          <li key={step.title}>
            <Card>
              <CardHeader>
                <CardTitle className="sh:flex sh:items-center sh:gap-2">
                  <span>
                    {i + 1}. {step.title}
                  </span>
                  {step.done && <Badge variant="success">Done</Badge>}
                </CardTitle>
                <div className="sh:text-sm sh:text-muted-foreground">{step.body}</div>
              </CardHeader>
              {step.action && <CardContent>{step.action}</CardContent>}
            </Card>
          </li>
        ))}
      </ol>
      <Link to="/" className="sh:w-fit sh:text-sm sh:underline sh:underline-offset-4">
        Back to the start
      </Link>
    </main>
  );
}
