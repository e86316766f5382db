import type { AgentStage } from '@kestrel/contracts/agents';
import type { BotMode } from '@kestrel/contracts/bots';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AGENT_MAX_ORDERS_PER_MINUTE,
  AGENT_MAX_PRICE_DEVIATION,
  type GuardInput,
  runGuard,
  staleAfterMs,
} from '../src/trading/agents/agent-guard';

const MINUTE = 60_000;
const NOW = Date.UTC(2026, 0, 10, 12, 0, 0);

/** A proposal that passes every check; the properties below vary it */
const base = (): GuardInput => ({
  qty: 0.01,
  price: 50_000,
  markPrice: 50_010,
  now: NOW + 2_000,
  barTime: NOW - MINUTE,
  intervalMs: MINUTE,
  latched: false,
  stage: 'paper',
  mode: 'paper',
  position: { qty: 0, equity: 1000, peakEquity: 1000, todayPnl: 0 },
  limits: { maxNotional: 2_000, dailyLossLimit: 50, maxDrawdownPercent: 10 },
  leverage: 5,
  bracketMaxNotional: 50_000,
  ordersLastMinute: 0,
  ordersToSend: 2,
  filters: { stepSize: 0.001, minNotional: 100 },
});

/** `usual` four times in five */
const often = <T>(usual: T, rare: T) =>
  fc.oneof({ arbitrary: fc.constant(usual), weight: 4 }, { arbitrary: fc.constant(rare), weight: 1 });
/** Quantities in steps of 0.001 and prices in whole USDT: fast-check's doubles crowd near 0 and the extremes */
const price = fc.integer({ min: 1, max: 200_000 });
const qty = fc.integer({ min: -5_000, max: 5_000 }).map((n) => n / 1000);
const input = fc.record({
  qty,
  positionQty: qty,
  price,
  /** The mark a little off the price (within or past the allowed deviation), or unreadable */
  markOffset: fc.option(fc.double({ min: -0.03, max: 0.03, noNaN: true }), { nil: null, freq: 10 }),
  ageMs: fc.oneof(fc.integer({ min: -1_000, max: 40_000 }), fc.integer({ min: 0, max: 10 * MINUTE })),
  latched: often(false, true),
  stage: fc.constantFrom<AgentStage>('paper', 'paper', 'paper', 'backtest', 'live_approval', 'live_auto'),
  mode: often<BotMode>('paper', 'live'),
  peak: fc.double({ min: 1, max: 5_000, noNaN: true }),
  /** Fall from the peak, as a fraction */
  fall: fc.double({ min: 0, max: 0.3, noNaN: true }),
  todayPnl: fc.double({ min: -500, max: 500, noNaN: true }),
  maxNotional: fc.option(fc.double({ min: 1, max: 100_000, noNaN: true }), { nil: null }),
  dailyLossLimit: fc.option(fc.double({ min: 0.01, max: 500, noNaN: true }), { nil: null }),
  maxDrawdownPercent: fc.option(fc.double({ min: 0.01, max: 100, noNaN: true }), { nil: null }),
  bracket: fc.option(fc.double({ min: 0, max: 1e6, noNaN: true }), { nil: null }),
  ordersLastMinute: fc.integer({ min: 0, max: 7 }),
  ordersToSend: fc.integer({ min: 1, max: 2 }),
});

const build = (r: typeof input extends fc.Arbitrary<infer T> ? T : never): GuardInput => ({
  ...base(),
  qty: r.qty,
  price: r.price,
  markPrice: r.markOffset === null ? null : r.price * (1 + r.markOffset),
  now: NOW - MINUTE + MINUTE + r.ageMs,
  latched: r.latched,
  stage: r.stage,
  mode: r.mode,
  position: {
    qty: r.positionQty,
    equity: r.peak * (1 - r.fall),
    peakEquity: r.peak,
    todayPnl: r.todayPnl,
  },
  limits: {
    maxNotional: r.maxNotional,
    dailyLossLimit: r.dailyLossLimit,
    maxDrawdownPercent: r.maxDrawdownPercent,
  },
  bracketMaxNotional: r.bracket,
  ordersLastMinute: r.ordersLastMinute,
  ordersToSend: r.ordersToSend,
});

describe('agent risk guard', () => {
  it('passes a proposal within every limit and records each check before → after', () => {
    const result = runGuard(base());
    expect(result.passed).toBe(true);
    expect(result.exit).toBe(false);
    expect(result.checks.map((c) => c.check)).toEqual([
      'data_fresh',
      'latch',
      'stage',
      'max_notional',
      'daily_loss',
      'drawdown',
      'leverage_bracket',
      'orders_per_minute',
      'price_vs_mark',
      'exchange_filters',
    ]);
    const notional = result.checks.find((c) => c.check === 'max_notional');
    expect(notional).toMatchObject({ before: 0, after: 500, limit: 2_000, passed: true });
  });

  it('no random entry that passes breaches a cap (property)', () => {
    let passed = 0;
    fc.assert(
      fc.property(input, (r) => {
        const g = build(r);
        const result = runGuard(g);
        if (!result.passed || result.exit) return;
        passed++;
        const after = Math.abs(g.position.qty + g.qty) * g.price;
        const grows = Math.abs(g.position.qty + g.qty) > Math.abs(g.position.qty);
        const drawdown = ((g.position.peakEquity - g.position.equity) / g.position.peakEquity) * 100;
        // Every cap holds for a passed proposal that is not an exit
        expect(g.latched).toBe(false);
        expect(g.stage === 'paper' ? g.mode === 'paper' : g.stage !== 'backtest' && g.mode === 'live').toBe(
          true,
        );
        if (g.limits.maxNotional !== null && grows) expect(after).toBeLessThanOrEqual(g.limits.maxNotional);
        if (g.limits.dailyLossLimit !== null)
          expect(-g.position.todayPnl).toBeLessThan(g.limits.dailyLossLimit);
        if (g.limits.maxDrawdownPercent !== null) expect(drawdown).toBeLessThan(g.limits.maxDrawdownPercent);
        expect(g.bracketMaxNotional).not.toBeNull();
        if (grows) expect(after).toBeLessThanOrEqual(g.bracketMaxNotional ?? 0);
        expect(g.ordersLastMinute + g.ordersToSend).toBeLessThanOrEqual(AGENT_MAX_ORDERS_PER_MINUTE);
        expect(g.markPrice).not.toBeNull();
        expect(Math.abs(g.price - (g.markPrice ?? 0)) / (g.markPrice ?? 1)).toBeLessThanOrEqual(
          AGENT_MAX_PRICE_DEVIATION,
        );
        expect(g.now - (g.barTime + g.intervalMs)).toBeLessThanOrEqual(staleAfterMs(g.intervalMs));
        expect(Math.abs(g.qty) * g.price).toBeGreaterThanOrEqual(g.filters.minNotional - 1e-6);
      }),
      { seed: 18, numRuns: 5_000 },
    );
    // The property is not vacuous: enough random entries pass to be checked
    expect(passed).toBeGreaterThan(20);
  });

  it('exits always pass, whatever is breached (property)', () => {
    fc.assert(
      fc.property(input, fc.double({ min: 0.01, max: 1, noNaN: true }), (r, share) => {
        const g = build(r);
        if (Math.abs(g.position.qty) < 1e-9) return;
        // Any order that moves the position toward flat without flipping it: part or all of it
        const exit = { ...g, qty: -g.position.qty * share };
        const result = runGuard(exit);
        expect(result.exit).toBe(true);
        expect(result.passed).toBe(true);
        expect(result.checks.every((c) => c.passed)).toBe(true);
      }),
      { seed: 19, numRuns: 2_000 },
    );
  });

  it('fails closed on stale data, an unreadable mark or unknown brackets', () => {
    const stale = runGuard({ ...base(), now: NOW + staleAfterMs(MINUTE) + 1 });
    expect(stale.passed).toBe(false);
    expect(stale.checks.find((c) => c.check === 'data_fresh')?.passed).toBe(false);

    const noMark = runGuard({ ...base(), markPrice: null });
    expect(noMark.passed).toBe(false);
    expect(noMark.checks.find((c) => c.check === 'price_vs_mark')?.detail).toBe(
      'The mark price cannot be read',
    );

    const noBrackets = runGuard({ ...base(), bracketMaxNotional: null });
    expect(noBrackets.passed).toBe(false);

    const nanPrice = runGuard({ ...base(), price: Number.NaN });
    expect(nanPrice.passed).toBe(false);

    // The same stale bar still lets an exit out
    const exit = runGuard({
      ...base(),
      now: NOW + 10 * MINUTE,
      markPrice: null,
      position: { qty: 0.01, equity: 1000, peakEquity: 1000, todayPnl: 0 },
      qty: -0.01,
    });
    expect(exit.passed).toBe(true);
    expect(exit.checks.find((c) => c.check === 'data_fresh')?.detail).toMatch(/an exit always passes/);
  });

  it('refuses entries while latched and in a stage that does not trade in the bot’s mode', () => {
    expect(runGuard({ ...base(), latched: true }).passed).toBe(false);
    expect(runGuard({ ...base(), stage: 'backtest' }).passed).toBe(false);
    expect(runGuard({ ...base(), stage: 'live_auto', mode: 'paper' }).passed).toBe(false);
    expect(runGuard({ ...base(), stage: 'live_auto', mode: 'live' }).passed).toBe(true);
    // A flip (long to short) is not an exit: it opens risk on the other side
    const flip = runGuard({
      ...base(),
      latched: true,
      position: { qty: 0.01, equity: 1000, peakEquity: 1000, todayPnl: 0 },
      qty: -0.02,
    });
    expect(flip.exit).toBe(false);
    expect(flip.passed).toBe(false);
  });
});
