import { Button } from '@kestrel/ui';
import { Link } from 'react-router-dom';

export function OnboardingPage() {
  return (
    <main className="sh:mx-auto sh:flex sh:min-h-dvh sh:max-w-3xl sh:flex-col sh:justify-center sh:gap-6 sh:p-6">
      <h1 className="sh:text-3xl sh:font-bold">Getting started</h1>
      <ol className="sh:list-decimal sh:space-y-2 sh:pl-6">
        <li>Create your account.</li>
        <li>Connect Binance with an API key that can trade but not withdraw.</li>
        <li>Start your first bot, or backtest it first.</li>
      </ol>
      <Button asChild className="sh:w-fit">
        <Link to="/">Back to the start</Link>
      </Button>
    </main>
  );
}
