import type { BarOutcome } from './bot-step';

/** A fault that stops the bot (state `error`); its message is the stop reason the owner reads */
export class BotFault extends Error {
  constructor(
    message: string,
    readonly kind: 'error' | 'risk_stop' = 'error',
    readonly data: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'BotFault';
  }
}

/** An error's message for a log line or stop reason; `no answer` when it has none */
export function reasonOf(err: unknown): string {
  return err instanceof Error && err.message ? err.message : 'no answer';
}

/** What stops the bot for `err`: a BotFault as it is, anything else as "<what>: <its message>" */
export function faultOf(err: unknown, what: string): BotFault {
  return err instanceof BotFault ? err : new BotFault(`${what}: ${reasonOf(err)}`);
}

/** An exchange call a session cannot do without; its failure stops the bot saying what could not be done */
export async function exchangeStep<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw new BotFault(`Could not ${what}: ${reasonOf(err)}`);
  }
}

/**
 * A risk limit the step broke stops the bot: state `error`, logged as `risk_stop` (a risk event, on /risk too). An
 * order the exchange refused stops it as a failure (`error`), so it is never called a risk stop
 */
export function stopOnBreach(outcome: Pick<BarOutcome, 'breach'> | undefined): void {
  const breach = outcome?.breach;
  if (!breach) return;
  throw new BotFault(breach.message, breach.cause === 'exchange' ? 'error' : 'risk_stop', breach.data);
}
