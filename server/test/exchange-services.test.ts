import { beforeAll, describe, expect, it } from 'vitest';
import type { TradingAccount } from '../src/core/environment/trading-account';
import { BinanceUsdmAdapter } from '../src/core/exchange/binance-adapter';
import type { ExchangeKeys, Position } from '../src/core/exchange/exchange-adapter';
import { MarketService } from '../src/core/exchange/market-service';
import { HttpError } from '../src/lib/http-error';
import { FuturesService, PNL_WINDOW_MS } from '../src/trading/futures/futures-service';
import { SIM_START, signUp, useTestServer } from './helper';

/**
 * The real adapter, except that positions also list BTCUSDT flat, as Binance's v3 positionRisk does for a symbol
 * with open orders and no position (the simulator leaves flat positions out)
 */
class ListingFlatBtc extends BinanceUsdmAdapter {
  override async positions(keys: ExchangeKeys, symbol?: string): Promise<Position[]> {
    const listed = await super.positions(keys, symbol);
    if (symbol !== undefined && symbol !== 'BTCUSDT') return listed;
    const flat: Position = {
      symbol: 'BTCUSDT',
      positionSide: 'BOTH',
      amount: '0',
      entryPrice: '0',
      markPrice: '0',
      unrealizedPnl: '0',
      liquidationPrice: '0',
      notional: '0',
      initialMargin: '0',
      maintenanceMargin: '0',
      updatedAt: 0,
    };
    return [...listed, flat];
  }
}

/** The rules of the futures and market services, called directly on the real app against the simulator */
describe('FuturesService and MarketService against the simulator', () => {
  let userId: string;
  /** The user's account: testnet, their current environment */
  let account: TradingAccount;

  const t = useTestServer({ simulator: { symbols: ['BTCUSDT', 'SOLUSDT'] } });
  beforeAll(async () => {
    userId = (await t.connectedUser()).auth.user.id;
    account = { userId, environment: 'testnet' };
  });

  const futures = () => t.app.futuresService;
  const market = (order: { side: 'BUY' | 'SELL'; quantity: string }) =>
    futures().placeOrder(account, { symbol: 'SOLUSDT', type: 'MARKET', ...order });

  it('a flat position the exchange lists is never shown as open, nor counted in the risk', async () => {
    const service = new FuturesService(
      t.app.credentialsService,
      new ListingFlatBtc({ restUrl: t.simUrl }),
      t.clock,
      t.app.orderManager,
    );
    await market({ side: 'BUY', quantity: '1' });
    expect((await service.positions(account, 'BTCUSDT')).map((p) => p.amount)).toEqual(['0']);
    expect((await service.openPositions(account)).map((p) => [p.symbol, p.amount])).toEqual([
      ['SOLUSDT', '1'],
    ]);
    expect((await service.accountInfo(account)).positions.map((p) => p.symbol)).toEqual(['SOLUSDT']);
    expect((await service.risk(account)).positions.map((p) => p.symbol)).toEqual(['SOLUSDT']);

    await market({ side: 'SELL', quantity: '1' });
    expect(await service.openPositions(account)).toEqual([]);
    expect((await service.accountInfo(account)).positions).toEqual([]);
    expect(await service.risk(account)).toMatchObject({ level: 'none', positions: [] });
  });

  it('the PnL window ends at the injected clock and counts income from its first millisecond on', async () => {
    // The simulator's clock stays at SIM_START, where the fills above booked their commission
    const start = t.clock.now().getTime();
    expect(start).toBe(SIM_START);
    const now = await futures().pnl(account);
    expect(now).toMatchObject({ from: start - PNL_WINDOW_MS, to: start });
    expect(Number(now.commission)).toBeLessThan(0);
    expect(now.bySymbol.map((b) => b.symbol)).toEqual(['SOLUSDT']);

    // Seven days on, the fills sit exactly on the window's first millisecond: still counted
    t.clock.advance(PNL_WINDOW_MS);
    const edge = await futures().pnl(account);
    expect(edge).toMatchObject({ from: start, to: start + PNL_WINDOW_MS, commission: now.commission });

    // One millisecond later they are out of the window
    t.clock.advance(1);
    const after = await futures().pnl(account);
    expect(after.from).toBe(start + 1);
    expect(Number(after.commission)).toBe(0);
    expect(Number(after.realizedPnl)).toBe(0);
    expect(after.bySymbol).toEqual([]);
    // Unrealized PnL is the account's now, whatever the window
    expect(after.unrealizedPnl).toBe(now.unrealizedPnl);
  });

  it('a user without stored keys gets the vault’s 400 before the exchange is asked', async () => {
    const stranger = await signUp(t);
    const refused = await futures()
      .openPositions({ userId: stranger.user.id, environment: 'testnet' })
      .catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(HttpError);
    expect(refused).toMatchObject({ statusCode: 400, code: 'CREDENTIALS_REQUIRED' });
  });

  it('exchange refusals become HTTP errors; an unlisted symbol is a 404 naming it', async () => {
    const unlisted = await futures()
      .symbolInfo(account, 'NOPEUSDT')
      .catch((err: unknown) => err);
    expect(unlisted).toMatchObject({
      statusCode: 404,
      code: 'SYMBOL_NOT_FOUND',
      message: 'NOPEUSDT is not a futures symbol of this exchange',
    });
    const rejected = await futures()
      .setLeverage(account, 'SOLUSDT', 500)
      .catch((err: unknown) => err);
    expect(rejected).toMatchObject({ statusCode: 400, code: 'EXCHANGE_REJECTED' });
  });

  it('market: each symbol once, in the order asked; status measures latency around the time call', async () => {
    const tickers = await t.app.marketService.tickers(account, ['SOLUSDT', 'BTCUSDT', 'SOLUSDT']);
    expect(tickers.map((x) => x.symbol)).toEqual(['SOLUSDT', 'BTCUSDT']);

    const ticks = [1000, 1042.4];
    const timed = new MarketService(
      () => ({ exchange: t.app.exchangeAdapter, env: 'simulator' }),
      () => ticks.shift() ?? 0,
    );
    expect(await timed.status({ userId: 'someone', environment: 'testnet' })).toEqual({
      exchange: 'binance',
      environment: 'simulator',
      reachable: true,
      clockOffsetMs: t.app.exchangeAdapter.clockOffsetMs,
      latencyMs: 42,
      message: 'Binance connectivity OK',
    });
  });
});
