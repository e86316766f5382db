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
