/** Bad input handed to the engine (NaN prices, malformed klines, invalid parameters); the message names the field */
export class EngineInputError extends Error {
  override readonly name = 'EngineInputError';
}

/** A strategy hook threw or returned something unusable; the run stops at this bar */
export class StrategyError extends Error {
  override readonly name = 'StrategyError';
  constructor(
    readonly strategyId: string,
    readonly barIndex: number,
    readonly hook: string,
    cause: unknown,
  ) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(`strategy "${strategyId}" failed in ${hook} at bar ${barIndex}: ${reason}`, { cause });
  }
}

/** Throws a clear error unless `value` is a finite number (fail fast on NaN and infinities) */
export function assertFinite(value: number, field: string): void {
  if (!Number.isFinite(value)) throw new EngineInputError(`${field} must be a finite number, got ${value}`);
}
