import type { SignalOutcome as RecordedOutcome } from '@kestrel/contracts/bots';
import type { TradeSignal } from '@kestrel/engine';
import type { SignalOutcome } from '../live-account';

/** A trade signal a live session acted on, as kept to hand it to the strategy again after a restart */
export interface ActedSignal {
  /** What its orders are keyed by (`<key>:<n>`) */
  key: string;
  signal: TradeSignal;
  /** The price it was acted at */
  price: number;
  receivedAt: number;
  /** Open time of the bar in progress when it came */
  barTime: number;
}

/** What a session did with a signal: its record's outcome and words, and where it was acted (for a replay) */
export interface SignalTaken {
  outcome: Exclude<RecordedOutcome, 'pending'>;
  message: string;
  orders: string[];
  session?: { startedAt: number; barTime: number; price: number };
}

const count = (n: number, what: string) => `${n} order${n === 1 ? '' : 's'} ${what}`;

/** A signal's outcome in words, from what the live account sent for it */
export function signalTakenWords(done: SignalOutcome): Omit<SignalTaken, 'session'> {
  if (done.refused !== undefined) return { outcome: 'refused', message: done.refused, orders: [] };
  if (done.breach)
    return { outcome: 'refused', message: `${done.breach.message}: the bot stops`, orders: done.placed };
  if (done.placed.length === 0 && done.canceled === 0)
    return {
      outcome: 'nothing',
      message: 'Nothing to do: the bot’s position and orders already follow it',
      orders: [],
    };
  const words = [
    ...(done.canceled > 0 ? [count(done.canceled, 'canceled')] : []),
    ...(done.placed.length > 0 ? [count(done.placed.length, 'sent')] : []),
  ];
  return { outcome: 'acted', message: words.join(', '), orders: done.placed };
}
