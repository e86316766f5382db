import { Button } from '@kestrel/ui';
import { Link } from 'react-router-dom';

export function LandingPage() {
  return (
    <main className="sh:mx-auto sh:flex sh:min-h-dvh sh:max-w-3xl sh:flex-col sh:justify-center sh:gap-6 sh:p-6">
      <h1 className="sh:text-4xl sh:font-bold sh:tracking-tight">Kestrel</h1>
      <p className="sh:text-lg sh:text-muted-foreground">
        Self-hosted automated trading for Binance USDⓈ-M futures: market data, positions, orders, PnL, risk
        and bots in one place.
      </p>
      <div className="sh:flex sh:gap-3">
        <Button asChild>
          <Link to="/dashboard">Open the dashboard</Link>
        </Button>
        <Button asChild variant="outline">
          <Link to="/onboarding">How it works</Link>
        </Button>
      </div>
    </main>
  );
}
