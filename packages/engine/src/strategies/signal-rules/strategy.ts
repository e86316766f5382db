import type { Fill } from '../../broker/orders';
import { Ema } from '../../indicators/average/ema/ema';
import { Sma } from '../../indicators/average/sma/sma';
import { Rsi } from '../../indicators/momentum/rsi/rsi';
import { Macd } from '../../indicators/trend/macd/macd';
import { Atr } from '../../indicators/volatility/atr/atr';
import { Bollinger } from '../../indicators/volatility/bollinger/bollinger';
import { Vwap } from '../../indicators/volume/vwap/vwap';
import { strategyType } from '../../strategy/registry';
import { INTERFACE_VERSION, type Strategy, type StrategyContext } from '../../strategy/strategy';
import { closePosition, placePositionExits } from '../shared/position-exits';
import { entryPlan, qtyForEquityFraction } from '../shared/position-sizing';
import {
  type Condition,
  type Operand,
  type RULE_INDICATORS,
  type SignalRulesParams,
  SignalRulesParamsSchema,
} from './params';

/** Reads one operand's value for the bar that just closed (NaN while its indicator is not stable) */
type Reader = (ctx: StrategyContext) => number;

/** One streaming indicator per distinct (name, period), fed once per bar, shared by every rule that reads it */
class IndicatorBank {
  private readonly updaters: ((ctx: StrategyContext) => void)[] = [];
  private readonly readers = new Map<string, Reader>();
  private readonly bar = { high: 0, low: 0, close: 0, volume: 0 };

  reader(operand: Operand): Reader {
    if (operand.kind === 'value') {
      const v = operand.value;
      return () => v;
    }
    if (operand.kind === 'price') {
      const field = operand.field;
      return (ctx) => ctx[field](0);
    }
    const family = operand.name.startsWith('macd')
      ? 'macd'
      : operand.name.startsWith('bb')
        ? 'bb'
        : operand.name;
    const key = `${operand.name}:${family === 'macd' ? '' : operand.period}`;
    const cached = this.readers.get(key);
    if (cached) return cached;
    const reader = this.create(operand.name, operand.period);
    this.readers.set(key, reader);
    return reader;
  }

  private create(name: (typeof RULE_INDICATORS)[number], period: number): Reader {
    const bar = this.bar;
    switch (name) {
      case 'sma':
      case 'ema':
      case 'rsi': {
        const ind = name === 'sma' ? new Sma(period) : name === 'ema' ? new Ema(period) : new Rsi(period);
        this.updaters.push((ctx) => ind.add(ctx.close(0)));
        return () => ind.value;
      }
      case 'atr':
      case 'vwap': {
        const ind = name === 'atr' ? new Atr(period) : new Vwap();
        this.updaters.push(() => ind.add(bar));
        return () => ind.value;
      }
      case 'macd':
      case 'macdSignal':
      case 'macdHistogram': {
        const ind = new Macd(12, 26, 9);
        this.updaters.push((ctx) => ind.add(ctx.close(0)));
        const field = name === 'macd' ? 'macd' : name === 'macdSignal' ? 'signal' : 'histogram';
        return () => ind.getResult()?.[field] ?? Number.NaN;
      }
      default: {
        const ind = new Bollinger(period, 2);
        this.updaters.push((ctx) => ind.add(ctx.close(0)));
        const field = name === 'bbUpper' ? 'upper' : name === 'bbMiddle' ? 'middle' : 'lower';
        return () => ind.getResult()?.[field] ?? Number.NaN;
      }
    }
  }

  update(ctx: StrategyContext): void {
    this.bar.high = ctx.high(0);
    this.bar.low = ctx.low(0);
    this.bar.close = ctx.close(0);
    this.bar.volume = ctx.volume(0);
    for (const u of this.updaters) u(ctx);
  }
}

/** A condition with the previous bar's operand values, for crossings */
class Rule {
  private prevLeft = Number.NaN;
  private prevRight = Number.NaN;
  holds = false;

  constructor(
    private readonly op: Condition['op'],
    private readonly left: Reader,
    private readonly right: Reader,
  ) {}

  evaluate(ctx: StrategyContext): void {
    const l = this.left(ctx);
    const r = this.right(ctx);
    const pl = this.prevLeft;
    const pr = this.prevRight;
    // NaN (indicator not stable yet) makes every comparison false
    switch (this.op) {
      case 'above':
        this.holds = l > r;
        break;
      case 'below':
        this.holds = l < r;
        break;
      case 'crossesAbove':
        this.holds = pl <= pr && l > r;
        break;
      case 'crossesBelow':
        this.holds = pl >= pr && l < r;
        break;
    }
    this.prevLeft = l;
    this.prevRight = r;
  }
}

/**
 * Enters (long or short) at market when every entry condition holds on a closed bar and exits when every exit
 * condition holds; optional stop-loss and take-profit are placed once the entry fills.
 */
class SignalRules implements Strategy {
  private readonly bank = new IndicatorBank();
  private readonly entry: Rule[];
  private readonly exit: Rule[];
  private started = false;

  constructor(private readonly p: SignalRulesParams) {
    const build = (c: Condition) => new Rule(c.op, this.bank.reader(c.left), this.bank.reader(c.right));
    this.entry = p.entry.map(build);
    this.exit = p.exit.map(build);
  }

  onBar(ctx: StrategyContext): void {
    const broker = ctx.broker;
    if (!this.started) {
      this.started = true;
      if (broker.leverage !== this.p.leverage) broker.setLeverage(this.p.leverage);
    }
    this.bank.update(ctx);
    for (const r of this.entry) r.evaluate(ctx);
    for (const r of this.exit) r.evaluate(ctx);
    const pos = broker.positionQty;
    const long = this.p.side === 'long';
    if (pos === 0 && broker.inFlightOrders.length === 0 && this.entry.every((r) => r.holds)) {
      const qty = qtyForEquityFraction(broker, ctx.price, this.p.positionFraction);
      if (qty > 0)
        broker.submit({ side: long ? 'buy' : 'sell', type: 'market', quantity: qty, tag: 'entry' });
    } else if (pos !== 0 && this.exit.every((r) => r.holds)) {
      broker.cancelAll();
      closePosition(broker);
    }
  }

  onFill(fill: Fill, ctx: StrategyContext): void {
    const broker = ctx.broker;
    if (fill.positionAfter === 0) {
      broker.cancelAll();
      return;
    }
    if (fill.tag !== 'entry') return;
    placePositionExits(broker, this.p);
  }
}

export const signalRulesStrategy = strategyType({
  id: 'signal-rules',
  name: 'Signal rules',
  description:
    'Enters and exits on conditions built from indicators, with optional stop-loss and take-profit',
  interfaceVersion: INTERFACE_VERSION,
  params: SignalRulesParamsSchema,
  positionSide: (p) => p.side,
  plannedOrders: (p, market) => entryPlan(p.side, p.positionFraction, market),
  warmupBars: (p) =>
    1 +
    Math.max(
      ...[...p.entry, ...p.exit].flatMap((c) =>
        [c.left, c.right].map((o) =>
          o.kind !== 'indicator' ? 0 : o.name.startsWith('macd') ? 34 : o.period + 1,
        ),
      ),
    ),
  create: (p) => new SignalRules(p),
});
