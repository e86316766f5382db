import { type SignalOutcome, type SignalRecord, signalAlertTemplate } from '@kestrel/contracts/bots';
import { type BadgeProps, formatPrice, formatQuantity } from '@kestrel/ui';
import type { CommandWords } from '../../../components/confirm-command';

export const OUTCOME_LABELS: Record<SignalOutcome, string> = {
  acted: 'Acted',
  nothing: 'Nothing to do',
  refused: 'Refused',
  pending: 'Pending',
};

export const OUTCOME_BADGES: Record<SignalOutcome, NonNullable<BadgeProps['variant']>> = {
  acted: 'success',
  nothing: 'secondary',
  refused: 'destructive',
  pending: 'outline',
};

/**
 * What a signal asked, as its line starts: "Buy BTCUSDT 0.01 @ 50,000.00", "Close ETHUSDT", or "Not read" for one
 * refused before its body could be trusted (a wrong secret, a body that is not JSON)
 */
export function signalWhat(s: Pick<SignalRecord, 'action' | 'symbol' | 'quantity' | 'price'>): string {
  if (s.action === null) return 'Not read';
  const words = [s.action.charAt(0).toUpperCase() + s.action.slice(1)];
  if (s.symbol !== null) words.push(s.symbol);
  if (s.quantity !== null) words.push(formatQuantity(s.quantity));
  if (s.price !== null) words.push(`@ ${formatPrice(s.price)}`);
  return words.join(' ');
}

/** The webhook's full address: the API's base (its origin, and a path prefix if it is served under one) + the path */
export function hookUrl(apiBaseUrl: string, path: string): string {
  return `${apiBaseUrl.replace(/\/+$/, '')}${path}`;
}

/**
 * Why an alert service on the internet would not reach the URL, or null: a loopback host (the embedded default
 * serves the API on 127.0.0.1), or a port TradingView does not post to (it posts to 80 and 443 only)
 */
export function reachNote(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const host = parsed.hostname;
  if (host === 'localhost' || host.startsWith('127.') || host === '[::1]') {
    return `This URL names this computer itself (${host}): TradingView cannot reach it. Serve Kestrel at a public address, on port 443 or 80, for its alerts to arrive.`;
  }
  if (parsed.port !== '' && parsed.port !== '80' && parsed.port !== '443') {
    return `TradingView posts only to ports 80 and 443, not ${parsed.port}: serve the API on one of them for its alerts to arrive.`;
  }
  return null;
}

/**
 * The alert message to paste: the contract's template; a bot whose strategy places its own orders takes start and
 * stop only, so its message asks to stop (edit it to "start" for the alert that starts it)
 */
export function alertMessage(secret: string, takesSignals: boolean): string {
  const template = signalAlertTemplate(secret);
  if (takesSignals) return template;
  return JSON.stringify({ ...(JSON.parse(template) as Record<string, unknown>), action: 'stop' }, null, 2);
}

/** The confirmations of the webhook's two lasting changes */
export function hookWords(what: 'replace' | 'remove', botName: string): CommandWords {
  return what === 'replace'
    ? {
        title: `Replace the webhook of ${botName}?`,
        body: 'A new URL and secret are made and the old URL stops taking signals at once: alerts still posting to it are refused until they carry the new ones.',
        confirm: 'Replace URL and secret',
        destructive: true,
      }
    : {
        title: `Remove the webhook of ${botName}?`,
        body: 'Its URL stops taking signals at once. The signals received so far stay listed here.',
        confirm: 'Remove webhook',
        destructive: true,
      };
}
