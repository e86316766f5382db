import {
  ErrorResponseSchema,
  OrderHistoryPageResponseSchema,
  TradeHistoryPageResponseSchema,
} from '@kestrel/contracts';
import { ManualClock } from '@kestrel/exchange-sim';
import { beforeAll, describe, expect, it } from 'vitest';
import { BinanceUsdmAdapter } from '../src/core/exchange/binance-adapter';
import type { ExchangeKeys } from '../src/core/exchange/exchange-adapter';
import { HISTORY_SYNC_MS } from '../src/core/recorder/account-recorder';
import { importHistory } from '../src/core/recorder/history-import';
import { historyRepository } from '../src/core/recorder/history-repository';
import { insertBotRow } from './bot-rows';
import { bearer, type Driver, postgresUrl, SIM_START, useTestServer } from './helper';

const pgUrl = await postgresUrl();

/** The real adapter, recording where each fill and order read started */
class CountingAdapter extends BinanceUsdmAdapter {
  tradeReads: { symbol: string; fromId: string }[] = [];
  orderReads: { symbol: string; orderId: string }[] = [];
  override async tradesFrom(...args: Parameters<BinanceUsdmAdapter['tradesFrom']>) {
    this.tradeReads.push({ symbol: args[1], fromId: args[2] });
    return super.tradesFrom(...args);
  }
  override async ordersFrom(...args: Parameters<BinanceUsdmAdapter['ordersFrom']>) {
    this.orderReads.push({ symbol: args[1], orderId: args[2] });
    return super.ordersFrom(...args);
  }
}

/** CSV text back to rows (quoted fields may hold commas, quotes and line breaks) */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  return rows;
}

/**
 * The order and fill import on the real app, database and simulator, and the history routes reading it back:
 * imported once, then only what is new; filters, sort and pages agree with the simulator's own record; CSV
 */
describe.each<Driver>(['pglite', 'postgres'])('trade and order history on %s', (driver) => {
  describe.skipIf(driver === 'postgres' && !pgUrl)('', () => {
    let adapter: CountingAdapter;
    let token: string;
    let userId: string;
    let apiKey: string;
    let keys: ExchangeKeys;
    const simClock = new ManualClock(SIM_START);

    const t = useTestServer({
      database: driver,
      simulator: { symbols: ['BTCUSDT', 'SOLUSDT'], clock: simClock },
      deps: (simUrl) => {
        adapter = new CountingAdapter({ restUrl: simUrl });
        return { exchangeAdapter: adapter };
      },
    });
    beforeAll(async () => {
      const user = await t.connectedUser();
      token = user.auth.access_token;
      userId = user.auth.user.id;
      apiKey = user.keys.apiKey;
      keys = { ...user.keys, environment: 'testnet' };
    });

    const get = (path: string) => t.request({ method: 'GET', url: path, headers: bearer(token) });
    const trades = async (query = '') => {
      const res = await get(`/api/v1/dashboard/history/trades${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return TradeHistoryPageResponseSchema.parse(res.json()).data;
    };
    const orders = async (query = '') => {
      const res = await get(`/api/v1/dashboard/history/orders${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return OrderHistoryPageResponseSchema.parse(res.json()).data;
    };
    const advance = (ms: number) => {
      t.clock.advance(ms);
      simClock.advance(ms);
    };
    const simAccount = () => {
      const account = t.sim.exchange.accountByKey(apiKey);
      if (!account) throw new Error('the demo account is gone');
      return account;
    };
    const market = (symbol: string, side: 'BUY' | 'SELL', quantity: string) =>
      t.app.futuresService.placeOrder(
        { userId, environment: 'testnet' },
        { symbol, side, type: 'MARKET', quantity },
      );
    /** A round after the income was read, so the traded symbols are known from it */
    const round = async () => {
      advance(HISTORY_SYNC_MS);
      await t.app.accountRecorder.tick();
    };

    it('imports the fills and orders once, then only what is new', async () => {
      await market('SOLUSDT', 'BUY', '2');
      advance(1000);
      await market('SOLUSDT', 'SELL', '1');
      advance(1000);
      await market('BTCUSDT', 'BUY', '0.002');
      const btc = Number((await t.app.exchangeAdapter.ticker('BTCUSDT')).lastPrice);
      // Far under the market: stays open
      const resting = await t.app.futuresService.placeOrder(
        { userId, environment: 'testnet' },
        {
          symbol: 'BTCUSDT',
          side: 'BUY',
          type: 'LIMIT',
          quantity: '0.002',
          price: (Math.floor(btc * 0.8 * 10) / 10).toFixed(1),
          timeInForce: 'GTC',
        },
      );
      await round();

      const sim = simAccount();
      const page = await trades(`?from=${SIM_START}`);
      expect(page.total).toBe(sim.trades.length);
      expect(page.total).toBe(3);
      expect(page.items.map((x) => x.id).sort()).toEqual(sim.trades.map((x) => String(x.id)).sort());
      const simOrders = [...sim.orders.values()];
      const o = await orders(`?from=${SIM_START}`);
      expect(o.total).toBe(simOrders.length);
      expect(o.items.find((x) => x.orderId === resting.orderId)?.status).toBe('NEW');
      expect(o.importedAt).toBe(t.clock.now().getTime());

      // Nothing new: a round reads on after the last fill, and stores nothing twice
      adapter.tradeReads.length = 0;
      await round();
      const lastSol = Math.max(...sim.trades.filter((x) => x.symbol === 'SOLUSDT').map((x) => x.id));
      expect(adapter.tradeReads).toContainEqual({ symbol: 'SOLUSDT', fromId: String(lastSol + 1) });
      expect((await trades(`?from=${SIM_START}`)).total).toBe(3);

      // A new fill and the resting order cancelled: the next round adds the one and updates the other
      await market('SOLUSDT', 'SELL', '1');
      await t.app.futuresService.cancelOrder({ userId, environment: 'testnet' }, 'BTCUSDT', {
        orderId: resting.orderId,
      });
      await round();
      expect((await trades(`?from=${SIM_START}`)).total).toBe(4);
      const after = await orders(`?from=${SIM_START}&symbol=BTCUSDT&type=limit`);
      expect(after.items.map((x) => [x.orderId, x.status])).toEqual([[resting.orderId, 'CANCELED']]);
      const [count] = await t.database.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM trade_history WHERE user_id = $1',
        [userId],
      );
      expect(Number(count?.n)).toBe(4);
    });

    it('filters, sorts and pages as the simulator’s own record says', async () => {
      const sim = simAccount().trades;
      const solSells = sim.filter((x) => x.symbol === 'SOLUSDT' && x.side === 'SELL');
      const sells = await trades(`?from=${SIM_START}&symbol=solusdt&side=sell`);
      expect(sells.total).toBe(solSells.length);
      expect(sells.items.map((x) => x.id).sort()).toEqual(solSells.map((x) => String(x.id)).sort());
      // Sums over every matching fill, fees per asset
      const pnl = solSells.reduce((a, x) => a + Number(x.realizedPnl.toString()), 0);
      expect(Number(sells.totals.realizedPnl)).toBeCloseTo(pnl, 8);
      const fees = solSells.reduce((a, x) => a + Number(x.commission.toString()), 0);
      expect(sells.totals.commission.map((c) => c.asset)).toEqual(['USDT']);
      expect(Number(sells.totals.commission[0]?.amount)).toBeCloseTo(fees, 8);

      // Newest first by default; on price ascending when asked
      const all = await trades(`?from=${SIM_START}`);
      const times = all.items.map((x) => x.time);
      expect(times).toEqual([...times].sort((a, b) => b - a));
      const byPrice = await trades(`?from=${SIM_START}&sort=price&order=asc`);
      const prices = byPrice.items.map((x) => Number(x.price));
      expect(prices).toEqual([...prices].sort((a, b) => a - b));
      expect(prices[0]).toBe(Math.min(...sim.map((x) => Number(x.price.toString()))));

      // Pages of 1 walk the same order
      const walked = [];
      for (let p = 1; p <= all.total; p++) {
        const one = await trades(`?from=${SIM_START}&pageSize=1&page=${p}`);
        expect(one.total).toBe(all.total);
        walked.push(...one.items.map((x) => x.id));
      }
      expect(walked).toEqual(all.items.map((x) => x.id));

      // The filter's choices: every symbol with history
      const symbols = await get('/api/v1/dashboard/history/symbols');
      expect(symbols.json().data).toEqual(['BTCUSDT', 'SOLUSDT']);

      // A range that ends before the first fill has none
      expect((await trades(`?from=0&to=${SIM_START - 1}`)).total).toBe(0);
    });

    it('exports what is filtered as CSV, every row, with a file name; commas and quotes escaped', async () => {
      const res = await get(
        `/api/v1/dashboard/history/trades/export?from=${SIM_START}&symbol=SOLUSDT&pageSize=1`,
      );
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/csv/);
      expect(res.headers['content-disposition']).toMatch(
        /^attachment; filename="kestrel-trades-\d{8}-\d{8}\.csv"$/,
      );
      expect(res.headers['access-control-expose-headers']).toBe('content-disposition');
      const rows = parseCsv(res.body);
      expect(rows[0]?.slice(0, 4)).toEqual(['time', 'symbol', 'side', 'positionSide']);
      const sol = simAccount().trades.filter((x) => x.symbol === 'SOLUSDT');
      // pageSize is ignored: every matching fill
      expect(
        rows
          .slice(1)
          .map((r) => r[11])
          .sort(),
      ).toEqual(sol.map((x) => String(x.id)).sort());

      const orderCsv = parseCsv(
        (await get(`/api/v1/dashboard/history/orders/export?from=${SIM_START}`)).body,
      );
      expect(orderCsv.length - 1).toBe(simAccount().orders.size);

      // An income note with a comma and quotes survives the trip
      await t.database.db.query(
        `INSERT INTO income_entries
           (user_id, environment, income_type, tran_id, symbol, income, asset, info, trade_id, time)
         VALUES ($1, 'testnet', 'TRANSFER', '424242', '', '5', 'USDT', $2, '', $3)`,
        [userId, 'note, with "quotes"', new Date(SIM_START + 1)],
      );
      const income = await get(`/api/v1/dashboard/history/income/export?from=${SIM_START}&type=transfer`);
      expect(income.statusCode, income.body).toBe(200);
      expect(income.body).toContain('"note, with ""quotes"""');
      const incomeRows = parseCsv(income.body);
      expect(incomeRows.find((r) => r[6] === '424242')?.[5]).toBe('note, with "quotes"');
    });

    it('says who placed each order and fill: a bot by name, you through Kestrel, or outside Kestrel', async () => {
      const botId = await insertBotRow(t.database.db, userId, 'bot', t.clock.now(), {
        name: 'History grid',
        mode: 'live',
      });
      const account = { userId, environment: 'testnet' } as const;
      const byBot = await t.app.orderManager.place({
        account,
        source: 'bot',
        botId,
        intentKey: 'history:1',
        order: { symbol: 'SOLUSDT', side: 'BUY', type: 'MARKET', quantity: '1' },
      });
      const byYou = await t.app.orderManager.place({
        account,
        source: 'manual',
        idempotencyKey: 'history-manual-1',
        order: { symbol: 'SOLUSDT', side: 'SELL', type: 'MARKET', quantity: '1' },
      });
      // Another tool on the same key: the exchange has the order, Kestrel never sent it
      const outside = await adapter.placeOrder(keys, {
        symbol: 'SOLUSDT',
        side: 'BUY',
        type: 'MARKET',
        quantity: '1',
      });
      expect([byBot.state, byYou.state]).toEqual(['placed', 'placed']);
      const botOrderId = byBot.order?.orderId;
      const yourOrderId = byYou.order?.orderId;
      await round();
      const placed = (await orders(`?from=${SIM_START}&symbol=SOLUSDT&pageSize=500`)).items;
      const byId = (id: string | undefined) => placed.find((o) => o.orderId === id)?.placedBy;
      expect(byId(botOrderId)).toEqual({ kind: 'bot', botId, botName: 'History grid' });
      expect(byId(yourOrderId)).toEqual({ kind: 'manual' });
      expect(byId(outside.orderId)).toEqual({ kind: 'outside' });
      const fills = (await trades(`?from=${SIM_START}&symbol=SOLUSDT&pageSize=500`)).items;
      expect(fills.find((f) => f.orderId === botOrderId)?.placedBy).toEqual({
        kind: 'bot',
        botId,
        botName: 'History grid',
      });
      const csv = parseCsv((await get(`/api/v1/dashboard/history/trades/export?from=${SIM_START}`)).body);
      const column = csv[0]?.indexOf('placedBy') ?? -1;
      expect(csv.find((r) => r[12] === botOrderId)?.[column]).toBe('bot:History grid');
      // A deleted bot's fills still say a bot placed them
      await t.database.db.query('DELETE FROM bots WHERE id = $1', [botId]);
      expect(
        (await trades(`?from=${SIM_START}&symbol=SOLUSDT&pageSize=500`)).items.find(
          (f) => f.orderId === botOrderId,
        )?.placedBy,
      ).toEqual({ kind: 'bot', botId: null, botName: null });
    });

    it('says what is wrong with a bad query', async () => {
      const res = await get('/api/v1/dashboard/history/trades?pageSize=501');
      expect(res.statusCode).toBe(400);
      expect(ErrorResponseSchema.parse(res.json()).message).toContain('pageSize must be at most 500');
      const sort = await get('/api/v1/dashboard/history/orders?sort=fees');
      expect(sort.statusCode).toBe(400);
      expect(sort.body).toContain('sort must be one of time, updatedAt, symbol, price, quantity, status');
      expect((await t.request({ method: 'GET', url: '/api/v1/dashboard/history/trades' })).statusCode).toBe(
        401,
      );
    });

    it('a budget cut short goes on where it stopped', async () => {
      const other = await t.connectedUser();
      // Keys as the vault hands them out: tagged with the environment the router sends them to
      const keys = { ...other.keys, environment: 'testnet' as const };
      for (let i = 0; i < 3; i++) {
        await t.app.futuresService.placeOrder(
          { userId: other.auth.user.id, environment: 'testnet' },
          {
            symbol: 'SOLUSDT',
            side: 'BUY',
            type: 'MARKET',
            quantity: '1',
          },
        );
      }
      const deps = { db: t.database.db, repo: historyRepository, exchange: t.app.exchangeAdapter };
      const now = t.clock.now().getTime();
      // One call: the fills of SOLUSDT (an open position) but not yet its orders
      expect(await importHistory(deps, other.auth.user.id, keys, now, 0, 1)).toBe(false);
      const [mid] = await t.database.db.query<{ n: number }>(
        'SELECT (SELECT count(*) FROM trade_history WHERE user_id = $1)::int AS n',
        [other.auth.user.id],
      );
      expect(Number(mid?.n)).toBe(3);
      expect(await importHistory(deps, other.auth.user.id, keys, now + 1, 0, 10)).toBe(true);
      const [done] = await t.database.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM order_history WHERE user_id = $1',
        [other.auth.user.id],
      );
      expect(Number(done?.n)).toBe(3);
    });
  });
});
