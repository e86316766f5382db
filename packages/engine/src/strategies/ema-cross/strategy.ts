import type { Fill } from '../../broker/orders';
import { Ema } from '../../indicators/average/ema/ema';
import { strategyType } from '../../strategy/registry';
import { INTERFACE_VERSION, type Strategy, type StrategyContext } from '../../strategy/strategy';
import { qtyForEquityFraction } from '../shared/position-sizing';
import { type EmaCrossParams, EmaCrossParamsSchema } from './params';

/**
 * Goes long when the fast EMA crosses above the slow one and short when it crosses below (or only exits, for a
 * one-sided setting); optional stop-loss and take-profit are placed once the entry fills.
 */
class EmaCross implements Strategy {
  private readonly fast: Ema;
  private readonly slow: Ema;
  private prevDiff = Number.NaN;
  private started = false;

  constructor(private readonly p: EmaCrossParams) {
    this.fast = new Ema(p.fast);
    this.slow = new Ema(p.slow);
  }

  onBar(ctx: StrategyContext): void {
    const broker = ctx.broker;
    if (!this.started) {
      this.started = true;
      if (broker.leverage !== this.p.leverage) broker.setLeverage(this.p.leverage);
    }
    const c = ctx.close(0);
    this.fast.add(c);
    this.slow.add(c);
    const diff = this.fast.value - this.slow.value;
    const prev = this.prevDiff;
    this.prevDiff = diff;
    // NaN until both EMAs are stable: every comparison below is false then
    const up = prev <= 0 && diff > 0;
    const down = prev >= 0 && diff < 0;
    if (!up && !down) return;
    const pos = broker.positionQty;
    const side = this.p.side;
    const wantLong = up && side !== 'short';
    const wantShort = down && side !== 'long';
    if (pos === 0 && !wantLong && !wantShort) return;
    broker.cancelAll();
    const entry = wantLong || wantShort ? qtyForEquityFraction(broker, c, this.p.positionFraction) : 0;
    if (up && pos < 0)
      broker.submit({ side: 'buy', type: 'market', quantity: -pos + entry, tag: 'exit+entry' });
    else if (down && pos > 0)
      broker.submit({ side: 'sell', type: 'market', quantity: pos + entry, tag: 'exit+entry' });
    else if (pos === 0 && entry > 0)
      broker.submit({ side: wantLong ? 'buy' : 'sell', type: 'market', quantity: entry, tag: 'entry' });
  }

  onFill(fill: Fill, ctx: StrategyContext): void {
    const { stopLossPct, takeProfitPct } = this.p;
    const pos = fill.positionAfter;
    const broker = ctx.broker;
    if (fill.tag === 'sl' || fill.tag === 'tp') {
      // One of the pair closed the position: drop the other
      if (pos === 0) broker.cancelAll();
      return;
    }
    if (pos === 0 || (stopLossPct === 0 && takeProfitPct === 0)) return;
    const long = pos > 0;
    const exitSide = long ? 'sell' : 'buy';
    const entry = broker.entryPrice;
    if (stopLossPct > 0) {
      const trigger = broker.roundPrice(entry * (long ? 1 - stopLossPct : 1 + stopLossPct));
      broker.submit({
        side: exitSide,
        type: 'stop-market',
        triggerPrice: trigger,
        closePosition: true,
        tag: 'sl',
      });
    }
    if (takeProfitPct > 0) {
      const trigger = broker.roundPrice(entry * (long ? 1 + takeProfitPct : 1 - takeProfitPct));
      broker.submit({
        side: exitSide,
        type: 'take-profit-market',
        triggerPrice: trigger,
        closePosition: true,
        tag: 'tp',
      });
    }
  }
}

export const emaCrossStrategy = strategyType({
  id: 'ema-cross',
  name: 'EMA crossover',
  description: 'Trades fast/slow EMA crossings, with optional stop-loss and take-profit',
  interfaceVersion: INTERFACE_VERSION,
  params: EmaCrossParamsSchema,
  warmupBars: (p) => p.slow + 1,
  create: (p) => new EmaCross(p),
});
