import { useSession } from '@kestrel/shared-runtime/react';
import { Link, useLocation, useNavigate } from '@kestrel/shared-runtime/router';
import { Button, Card, CardContent, CardHeader, CardTitle } from '@kestrel/ui';
import { useState } from 'react';
import { SignInForm, SignUpForm } from '../auth/auth-forms';
import { type ReturnTo, usePreloadWhenSignedIn } from '../auth/require-auth';

const features = [
  {
    title: 'Binance USDⓈ-M futures',
    text: 'Market data, positions, orders, PnL and risk for your Binance futures account in one place.',
  },
  {
    title: 'Bots you can trust',
    text: 'Grid, DCA and signal bots, and AI-driven agents, backtested on the same engine that runs them live.',
  },
  {
    title: 'Your keys stay yours',
    text: 'API secrets are encrypted on your own server and never stored in the browser. Use a key that can trade but not withdraw: Kestrel refuses keys that can.',
  },
];

export function LandingPage() {
  const session = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const [mode, setMode] = useState<'signin' | 'signup'>('signin');
  usePreloadWhenSignedIn(session.status);
  const from = (location.state as ReturnTo | null)?.from;
  const afterAuth = () =>
    navigate(from ? `${from.pathname}${from.search}${from.hash}` : '/dashboard', { replace: true });

  return (
    <main className="sh:mx-auto sh:grid sh:min-h-dvh sh:max-w-6xl sh:items-center sh:gap-10 sh:p-6 sh:lg:grid-cols-[1fr_26rem]">
      <section className="sh:flex sh:flex-col sh:gap-6">
        <h1 className="sh:text-4xl sh:font-bold sh:tracking-tight">Kestrel</h1>
        <p className="sh:text-lg sh:text-muted-foreground">
          Self-hosted automated trading for Binance USDⓈ-M futures. Connect your account, watch the market and
          your risk, and run bots that you have backtested first.
        </p>
        <ul className="sh:grid sh:gap-4 sh:sm:grid-cols-3">
          {features.map((f) => (
            <li key={f.title} className="sh:rounded-lg sh:border sh:border-border sh:p-4">
              <h2 className="sh:font-semibold">{f.title}</h2>
              <p className="sh:mt-1 sh:text-sm sh:text-muted-foreground">{f.text}</p>
            </li>
          ))}
        </ul>
        <Link to="/onboarding" className="sh:w-fit sh:text-sm sh:underline sh:underline-offset-4">
          How getting started works
        </Link>
      </section>
      <Card aria-labelledby="auth-title">
        <CardHeader>
          <CardTitle id="auth-title">
            {session.status === 'signed-in'
              ? 'Welcome back'
              : mode === 'signin'
                ? 'Sign in'
                : 'Create your account'}
          </CardTitle>
        </CardHeader>
        <CardContent className="sh:flex sh:flex-col sh:gap-4">
          {session.status === 'signed-in' ? (
            <Button asChild>
              <Link to="/dashboard">Open the dashboard</Link>
            </Button>
          ) : mode === 'signin' ? (
            <>
              <SignInForm onSignedIn={afterAuth} />
              <p className="sh:text-sm sh:text-muted-foreground">
                New to Kestrel?{' '}
                <Button variant="link" className="sh:h-auto sh:p-0" onClick={() => setMode('signup')}>
                  Create an account
                </Button>
              </p>
            </>
          ) : (
            <>
              <SignUpForm onSignedUp={afterAuth} />
              <p className="sh:text-sm sh:text-muted-foreground">
                Already have an account?{' '}
                <Button variant="link" className="sh:h-auto sh:p-0" onClick={() => setMode('signin')}>
                  Sign in
                </Button>
              </p>
            </>
          )}
        </CardContent>
      </Card>
    </main>
  );
}
