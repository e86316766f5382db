import { useSession } from '@kestrel/shared-runtime/react';
import { Button, Card, CardContent, CardHeader, CardTitle } from '@kestrel/ui';
import { useState } from 'react';
import { SignInForm, SignUpForm } from '../auth/auth-forms';
import { usePreloadWhenSignedIn } from '../auth/preload-signed-in';
import { LandingFrame } from './landing-frame';
import { useLandingNavigation } from './landing-navigation';

// The landing without the router, for a cold visit to / (bootstrap.tsx): in this chunk, which such a visit loads
// first anyway, so other pages do not load it
export { ColdLanding } from '../cold-landing';

export function LandingPage() {
  const session = useSession();
  // Not the router's hooks: on a cold visit the landing is rendered before (and without) the router
  const { from, replaceWith, Link } = useLandingNavigation();
  const [mode, setMode] = useState<'signin' | 'signup'>('signin');
  usePreloadWhenSignedIn(session.status);
  const afterAuth = () => replaceWith(from ? `${from.pathname}${from.search}${from.hash}` : '/dashboard');

  return (
    <LandingFrame>
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
    </LandingFrame>
  );
}
