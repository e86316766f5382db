import type { ReactNode } from 'react';
import { useLandingNavigation } from './landing-navigation';

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

/**
 * The landing page around its sign-in card: what Kestrel is. The same markup is in the shell's index.html
 * (`landing.prerender.html`, checked against this component by its test), so a cold visit paints it from the HTML,
 * before any of the app's code has loaded; React then renders the page over it.
 */
export function LandingFrame({ children }: { children?: ReactNode }) {
  const { Link } = useLandingNavigation();
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
      {children}
    </main>
  );
}

/**
 * The sign-in card's place in the landing painted from the HTML (its height at every width), so nothing moves when
 * the card arrives: on a phone the text above would otherwise jump up as the page grows past the screen
 */
export function CardPlace() {
  return <div className="sh:min-h-[302px]" />;
}
