import type { KlineEvent } from '../../core/exchange/exchange-streams';

/**
 * A bot session's candles from the stream into its serial work: every closed candle in turn; of the forming ones
 * only the newest of the bar waits (its range is the bar's so far, so an update replaced is not missed, and a burst
 * of prices never queues up behind a slow step)
 */
export class CandleIntake {
  /** The forming candle waiting its turn, replaced by newer ones of the same bar until it runs */
  #waiting: { e: KlineEvent } | undefined;

  constructor(
    /** Queues work after the session's work before it */
    private readonly serial: (fn: () => Promise<void>) => void,
    private readonly handle: {
      closed(e: KlineEvent): Promise<void>;
      forming(e: KlineEvent): Promise<void>;
    },
  ) {}

  push(e: KlineEvent): void {
    if (e.closed) {
      this.#waiting = undefined;
      this.serial(() => this.handle.closed(e));
      return;
    }
    const waiting = this.#waiting;
    if (waiting && waiting.e.kline.openTime === e.kline.openTime) {
      waiting.e = e;
      return;
    }
    const slot = { e };
    this.#waiting = slot;
    this.serial(async () => {
      if (this.#waiting === slot) this.#waiting = undefined;
      await this.handle.forming(slot.e);
    });
  }
}
