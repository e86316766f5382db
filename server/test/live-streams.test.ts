import { describe, expect, it } from 'vitest';
import { bearer, signUp } from './helper';
import { openToolSocket, useLiveSockets } from './live-sockets';
import { pushOf } from './socket-helper';

/**
 * The live path end to end: the simulator's streams → the adapter → the live-streams producers → the socket bus
 * (NOTIFY) → a signed-in user's socket. Orders go through the REST API, as the browser sends them.
 */
describe('live pushes from the exchange', () => {
  const live = useLiveSockets({ historyDays: 2 });
  const { t, step } = live;
  const openSocket = (token: string, clientId: string) => openToolSocket(live, token, clientId);

  it('a signed-in user places an order through the REST API and gets the order, balance and position notices', async () => {
    // A user with the simulator's keys stored, as after connecting Binance in the browser
    const { auth } = await t.connectedUser();
    const s = await openSocket(auth.access_token, 'trader-tab');
    await t.app.liveStreams?.whenUserStreamOpen(auth.user.id);

    const placed = await t.request({
      method: 'POST',
      url: '/api/futures/orders/create',
      headers: bearer(auth.access_token),
      payload: { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.010', clientOrderId: 'live-1' },
    });
    expect(placed.statusCode).toBe(201);
    const orderId = placed.json().data.orderId as string;

    const created = await s.next(pushOf('notifications/order', (p) => p.executionType === 'NEW'));
    expect(created.params).toMatchObject({
      symbol: 'BTCUSDT',
      orderId,
      clientOrderId: 'live-1',
      status: 'NEW',
      side: 'BUY',
    });
    const filled = await s.next(pushOf('notifications/order', (p) => p.executionType === 'TRADE'));
    expect(filled.params).toMatchObject({ orderId, status: 'FILLED', executedQuantity: '0.010' });
    const balance = await s.next(pushOf('notifications/balance'));
    expect(balance.params).toMatchObject({ asset: 'USDT', reason: 'ORDER' });
    expect(Number(balance.params?.walletBalance)).toBeLessThan(1000); // the taker fee
    const position = await s.next(pushOf('notifications/position'));
    expect(position.params).toMatchObject({ symbol: 'BTCUSDT', positionSide: 'BOTH', amount: '0.01' });

    // Market pushes: the default watch list (SOLUSDT here) plus the symbol of the new position
    await step(s.next(pushOf('notifications/mark_price', (p) => p.symbol === 'BTCUSDT')));
    await step(s.next(pushOf('notifications/ticker', (p) => p.symbol === 'SOLUSDT')));
    expect(t.app.liveStreams?.marketSymbols).toEqual(['BTCUSDT', 'SOLUSDT']);
  });

  it('shares one upstream market stream between users, and a socket can choose its symbols', async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    const sa = await openSocket(a.access_token, 'a-tab');
    const sb = await openSocket(b.access_token, 'b-tab');
    const reply = await sb.request('streams/subscribe', { streams: ['markPrice'], symbols: ['BTCUSDT'] });
    expect(reply.error).toBeUndefined();
    const [pa, pb] = await step(
      Promise.all([
        sa.next(pushOf('notifications/mark_price', (p) => p.symbol === 'SOLUSDT')),
        sb.next(pushOf('notifications/mark_price', (p) => p.symbol === 'BTCUSDT')),
      ]),
    );
    expect(pa.params?.markPrice).toMatch(/^\d+\.\d+$/);
    expect(pb.params?.markPrice).toMatch(/^\d+\.\d+$/);
    // b chose BTCUSDT and mark prices only: none of SOLUSDT's pushes and no tickers reach it
    expect(
      sb.frames.filter((f) => f.params?.symbol === 'SOLUSDT' || f.method === 'notifications/ticker'),
    ).toEqual([]);
    // Both symbols ride on the one upstream connection: the simulator sees one market socket at most per route
    expect(t.app.liveStreams?.marketSymbols).toEqual(['BTCUSDT', 'SOLUSDT']);
  });
});
