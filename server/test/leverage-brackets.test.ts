import { ManualClock, SimServer } from '@kestrel/exchange-sim';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExchangeKeys } from '../src/core/exchange/exchange-adapter';
import { LeverageBrackets } from '../src/core/market-data/leverage-brackets';
import { SIM_START, TestClock } from './helper';
import { RecordingAdapter } from './recording-adapter';

/**
 * Issue "Hardening", item 7: the backtests' leverage-bracket cache was one per symbol, shared by every user. Binance
 * answers brackets per account (some get their own caps), so one user's table served another's run, and a key the
 * exchange refuses still got the table another user's key had read. Now the cache is per API key and symbol.
 */
describe('leverage brackets of backtests, per account', () => {
  let sim: SimServer;
  let adapter: RecordingAdapter;
  let alice: ExchangeKeys;
  let bob: ExchangeKeys;

  beforeAll(async () => {
    sim = new SimServer({ clock: new ManualClock(SIM_START), historyDays: 1, symbols: ['BTCUSDT'] });
    const { url } = await sim.listen(0);
    adapter = new RecordingAdapter({ restUrl: url });
    const account = async () =>
      (await (
        await fetch(`${url}/_sim/accounts`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ balances: { USDT: '1000' } }),
        })
      ).json()) as ExchangeKeys;
    alice = await account();
    bob = await account();
  });
  afterAll(() => sim?.close());

  it('reads each account’s table with its own key, and never hands one account’s table to a refused key', async () => {
    const keys: Record<string, ExchangeKeys> = {
      alice,
      bob,
      // A key the exchange does not know (-2015): its run must fall back to the default table
      mallory: { apiKey: `${'M'.repeat(63)}x`, secretKey: 'S'.repeat(64) },
    };
    const brackets = new LeverageBrackets({
      exchange: adapter,
      keysFor: async ({ userId }) => keys[userId],
      clock: new TestClock(SIM_START),
      log: Fastify({ logger: false }).log,
    });
    const before = adapter.bracketCalls;
    expect(await brackets.forRun({ userId: 'alice', environment: 'testnet' }, 'BTCUSDT')).toMatchObject({
      source: 'exchange',
    });
    expect(await brackets.forRun({ userId: 'mallory', environment: 'testnet' }, 'BTCUSDT')).toEqual({
      source: 'default',
    });
    expect(await brackets.forRun({ userId: 'bob', environment: 'testnet' }, 'BTCUSDT')).toMatchObject({
      source: 'exchange',
    });
    expect(adapter.bracketCalls).toBe(before + 3);
    // Each account's table is then reused for its own runs only
    expect(await brackets.forRun({ userId: 'alice', environment: 'testnet' }, 'BTCUSDT')).toMatchObject({
      source: 'exchange',
    });
    expect(await brackets.forRun({ userId: 'bob', environment: 'testnet' }, 'BTCUSDT')).toMatchObject({
      source: 'exchange',
    });
    expect(adapter.bracketCalls).toBe(before + 3);
  });
});
