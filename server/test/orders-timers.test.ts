import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TradingAccount } from '../src/core/environment/trading-account';
import { BinanceUsdmAdapter } from '../src/core/exchange/binance-adapter';
import type { ExchangeKeys } from '../src/core/exchange/exchange-adapter';
import { ManualClock } from '../src/lib/clock';
import { orderIntentRepository } from '../src/trading/orders/order-intent-repository';
import { startTestServer, type TestServer } from './helper';
import { limitBuyAt40k } from './order-bodies';

/** The user's testnet account (every user here stays on testnet, the default environment) */
const testnet = (userId: string): TradingAccount => ({ userId, environment: 'testnet' });
const BACKOFF_MS = 60_000;
const SWEEP_MS = 300_000;
const PENDING_STALE_MS = 90_000;

/**
 * The order manager's timers on a ManualClock: the resolve backoff, the sweep and the dead-man heartbeat run when
 * the test moves time, not after real seconds. The simulator keeps the wall clock (plus a shift the dead-man test
 * moves), so our client's timestamps stay inside its recvWindow
 */
describe('order manager timers on the injected clock', () => {
  let t: TestServer;
  let userId: string;
  let keys: ExchangeKeys;
  const clock = new ManualClock(Date.UTC(2026, 0, 15, 12));
  const simClock = { shift: 0, now: () => Date.now() + simClock.shift };

  beforeAll(async () => {
    t = await startTestServer({
      simulator: { symbols: ['BTCUSDT'], clock: simClock },
      deps: (simUrl) => ({
        clock,
        exchangeAdapter: new BinanceUsdmAdapter({ restUrl: simUrl, timeoutMs: 1_500 }),
        orderTimings: {
          backoffMs: [BACKOFF_MS],
          sweepIntervalMs: SWEEP_MS,
          pendingStaleMs: PENDING_STALE_MS,
          // Found or not, the lookups here conclude at once
          answerWindowMs: 1_000,
        },
      }),
    });
    const user = await t.connectedUser();
    userId = user.auth.user.id;
    keys = user.keys;
    await t.app.orderManagerStarted();
  });
  afterAll(() => t?.close());

  const stored = (clientOrderId: string) => orderIntentRepository.byClientId(t.app.db, userId, clientOrderId);
  it('an unknown outcome is looked up again after the backoff on the clock, and placed', async () => {
    t.sim.exchange.setPrice('BTCUSDT', { price: '50000' });
    // Executed, its answer replaced by a 503; the adapter's own lookup fails too
    t.sim.faults.add({ kind: 'error', method: 'POST', path: '/fapi/v1/order', phase: 'after', remaining: 1 });
    t.sim.faults.add({ kind: 'error', method: 'GET', path: '/fapi/v1/order', phase: 'before', remaining: 1 });
    const intent = await t.app.orderManager.place({
      account: testnet(userId),
      source: 'manual',
      order: limitBuyAt40k('tm-backoff'),
    });
    expect(intent.state).toBe('unknown');

    await clock.advance(BACKOFF_MS - 1);
    expect((await stored('tm-backoff'))?.state).toBe('unknown');
    await clock.advance(1);
    await vi.waitFor(async () => expect((await stored('tm-backoff'))?.state).toBe('placed'), {
      timeout: 30_000,
    });
    // Judged once, before the one send: the account limits passed (none are set)
    expect((await stored('tm-backoff'))?.preTrade).toEqual({
      origin: 'manual',
      verdicts: [{ check: 'account_limits', ok: true }],
    });
  });

  it('the sweep finds a pending intent whose process died before sending: not placed, nothing sent', async () => {
    // Recorded as the order manager records it, then its process "stops" before the guard and the POST
    await orderIntentRepository.claim(t.app.db, {
      userId,
      environment: 'testnet',
      botId: null,
      source: 'manual',
      clientOrderId: 'tm-stale',
      kind: 'order',
      request: limitBuyAt40k('tm-stale'),
      at: clock.now().getTime(),
    });
    await clock.advance(SWEEP_MS);
    await vi.waitFor(async () => expect((await stored('tm-stale'))?.state).toBe('not_placed'), {
      timeout: 30_000,
    });
    const account = t.sim.exchange.accountByKey(keys.apiKey);
    expect([...(account?.orders.values() ?? [])].filter((o) => o.clientOrderId === 'tm-stale')).toEqual([]);
  });

  it('the dead-man heartbeat refreshes the countdown every third of it, and stops with the server', async () => {
    const account = t.sim.exchange.accountByKey(keys.apiKey);
    if (!account) throw new Error('no account');
    await t.app.orderManager.armDeadman(testnet(userId), 'BTCUSDT', 30_000, 'bot-a');
    const armedAt = simClock.now();
    expect(t.sim.exchange.countdownDeadline(account, 'BTCUSDT')).toBeGreaterThan(armedAt + 29_000);

    // 10 s later on both clocks: the heartbeat pushes the deadline 30 s past the exchange's now
    simClock.shift += 10_000;
    await clock.advance(10_000);
    await vi.waitFor(
      () => expect(t.sim.exchange.countdownDeadline(account, 'BTCUSDT')).toBeGreaterThan(armedAt + 39_000),
      { timeout: 30_000 },
    );
    expect(t.app.orderManager.deadmanHolders(testnet(userId), 'BTCUSDT')).toEqual(['bot-a']);

    // Stopped, the heartbeat is gone (the exchange's countdown stays armed on purpose, and runs out)
    const timers = clock.pending;
    await t.app.orderManager.stop();
    expect(clock.pending).toBeLessThan(timers);
    await expect(t.app.orderManager.refreshDeadman(testnet(userId), 'BTCUSDT')).rejects.toMatchObject({
      code: 'DEADMAN_NOT_ARMED',
    });
    expect(t.sim.exchange.countdownDeadline(account, 'BTCUSDT')).toBeDefined();
  });
});
