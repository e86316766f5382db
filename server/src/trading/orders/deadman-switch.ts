import type { TradingEnvironment } from '@kestrel/contracts';
import type { TradingAccount } from '../../core/environment/trading-account';
import { viaExchange } from '../../core/exchange/exchange-http-error';
import type { Timer } from '../../lib/clock';
import { HttpError } from '../../lib/http-error';
import { message, type OrderContext } from './order-context';

/** Holder of a dead-man switch armed by hand (not by a bot) */
const MANUAL_HOLDER = 'manual';

const deadmanKey = ({ userId, environment }: TradingAccount, symbol: string) =>
  `${userId}:${environment}:${symbol}`;

/**
 * The exchange's dead-man switch (`countdownCancelAll`), kept alive by a heartbeat on the clock every third of
 * the countdown. The exchange keeps one countdown per (account, symbol), so it is owned here per (user,
 * environment, symbol) with the set of its holders
 */
export class DeadmanSwitch {
  /** Armed switches by `user:environment:symbol` */
  readonly #armed = new Map<
    string,
    { countdownMs: number; timer: Timer; holders: Set<string>; environment: TradingEnvironment }
  >();

  constructor(private readonly ctx: OrderContext) {}

  /**
   * Arms the exchange's dead-man switch for the account's `symbol` (`countdownCancelAll`) and keeps it alive from here (a refresh every third of the countdown): if this
   * process dies or loses the exchange, the exchange cancels the symbol's open orders when the countdown ends. A
   * live bot arms it while it has orders working. The exchange keeps one countdown per (account, symbol), so the
   * switch is owned here per (user, environment, symbol) with the set of its `holder`s (a bot id; `manual` by
   * default): one holder's heartbeat keeps it armed for all of them, and it is disarmed only when the last holder
   * lets go
   */
  async arm(
    account: TradingAccount,
    symbol: string,
    countdownMs = this.ctx.timings.deadmanCountdownMs,
    holder = MANUAL_HOLDER,
  ): Promise<void> {
    if (!Number.isInteger(countdownMs) || countdownMs < 1_000) {
      throw new HttpError(400, 'VALIDATION_ERROR', 'countdownMs must be a whole number of ms, at least 1000');
    }
    const { userId } = account;
    const keys = await this.ctx.keys(account);
    const k = deadmanKey(account, symbol);
    const previous = this.#armed.get(k);
    // The longest countdown any holder asked for: a shorter one would cut another holder's orders early
    const effective = Math.max(countdownMs, previous?.countdownMs ?? 0);
    await viaExchange(() => this.ctx.exchange.countdownCancelAll(keys, symbol, effective));
    const holders = previous?.holders ?? new Set<string>();
    holders.add(holder);
    if (previous && previous.countdownMs === effective) return;
    previous?.timer.cancel();
    const timer = this.ctx.clock.every(
      Math.floor(effective / 3),
      () => {
        void this.refresh(account, symbol).catch((err) =>
          this.ctx.log.warn({ userId, symbol, err: message(err) }, 'dead-man refresh failed'),
        );
      },
      { unref: true },
    );
    this.#armed.set(k, { countdownMs: effective, timer, holders, environment: keys.environment });
    if (!previous) {
      await this.ctx.repo.insertEvent(this.ctx.db, {
        userId,
        intentId: null,
        kind: 'deadman',
        message: `Dead-man switch armed on ${symbol}: the exchange cancels its open orders if Kestrel falls silent for ${effective / 1000} s`,
        data: { symbol, countdownMs: effective, armed: true, environment: keys.environment },
        at: this.ctx.now(),
      });
    }
  }

  /** Pushes the armed countdown back to its full length (the heartbeat does this on its own) */
  async refresh(account: TradingAccount, symbol: string): Promise<void> {
    const keys = await this.ctx.keys(account);
    const armed = this.#armed.get(deadmanKey(account, symbol));
    if (!armed) throw new HttpError(409, 'DEADMAN_NOT_ARMED', `No dead-man switch is armed on ${symbol}`);
    await viaExchange(() => this.ctx.exchange.countdownCancelAll(keys, symbol, armed.countdownMs));
  }

  /** Holders of the account's switch on `symbol` in this process (empty when it is not armed here) */
  holders(account: TradingAccount, symbol: string): string[] {
    return [...(this.#armed.get(deadmanKey(account, symbol))?.holders ?? [])];
  }

  /**
   * `holder` lets go of the switch. While other holders remain here, it stays armed and refreshed. When none is
   * left, the heartbeat stops and the exchange's countdown is disarmed (countdownTime 0), unless `keepArmed`: a
   * holder on another server instance still needs it (its own heartbeat keeps it alive). Without a holder, every
   * holder here is dropped (the switch is disarmed outright)
   */
  async disarm(
    account: TradingAccount,
    symbol: string,
    holder?: string,
    options: { keepArmed?: boolean } = {},
  ): Promise<void> {
    const { userId } = account;
    const keys = await this.ctx.keys(account);
    const k = deadmanKey(account, symbol);
    const armed = this.#armed.get(k);
    if (armed && holder !== undefined) {
      armed.holders.delete(holder);
      if (armed.holders.size > 0) return;
    }
    armed?.timer.cancel();
    this.#armed.delete(k);
    if (options.keepArmed) return;
    await viaExchange(() => this.ctx.exchange.countdownCancelAll(keys, symbol, 0));
    await this.ctx.repo.insertEvent(this.ctx.db, {
      userId,
      intentId: null,
      kind: 'deadman',
      message: `Dead-man switch disarmed on ${symbol}`,
      data: { symbol, armed: false, environment: keys.environment },
      at: this.ctx.now(),
    });
  }

  /** Stops every heartbeat here; the exchange's countdowns stay armed on purpose (they fire unrefreshed) */
  stop(): void {
    for (const d of this.#armed.values()) d.timer.cancel();
    this.#armed.clear();
  }
}
