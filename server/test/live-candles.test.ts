import { KLINE_INTERVALS } from '@kestrel/contracts';
import { describe, expect, it, vi } from 'vitest';
import { CANDLE_PUSH_MIN_MS } from '../src/core/live/live-streams';
import { signUp } from './helper';
import { useLiveSockets } from './live-sockets';
import { pushOf, TestSocket, type WsFrame, wsUrl } from './socket-helper';

/** Upstream streams outlive their last socket this long here (30 s in production) */
const LINGER_MS = 400;

/**
 * Candle pushes end to end: the simulator's `<symbol>@kline_<interval>` stream → the adapter → the live-streams
 * producers (one upstream stream per pair, forming bars throttled) → the socket bus → the sockets that asked
 */
describe('live candles', () => {
  // On a minute boundary: the 1m bar of 12:00 closes after 60 simulated seconds
  const live = useLiveSockets({ historyDays: 1, deps: { liveStreamLingerMs: LINGER_MS } });
  const { t, sockets, step } = live;

  /** A signed-in user's socket, and every candle push it receives with its wall-clock arrival */
  async function openSocket(): Promise<{
    s: TestSocket;
    candles: Array<{ at: number; p: Record<string, unknown> }>;
  }> {
    const auth = await signUp(t);
    const s = await TestSocket.open(wsUrl(live.base, auth.access_token, `tab-${sockets.length}`));
    sockets.push(s);
    const candles: Array<{ at: number; p: Record<string, unknown> }> = [];
    s.ws.on('message', (data) => {
      const f = JSON.parse(data.toString()) as WsFrame;
      if (f.method === 'notifications/candle') candles.push({ at: Date.now(), p: f.params ?? {} });
    });
    await s.request('tools/list');
    return { s, candles };
  }

  const candle = (match?: (p: Record<string, unknown>) => boolean) => pushOf('notifications/candle', match);

  it('pushes the forming candle (at most 4 a second) and the closed one to the subscribed socket only', async () => {
    const watcher = await openSocket();
    const bystander = await openSocket(); // every stream, no candle pairs
    const reply = await watcher.s.request('streams/subscribe', {
      streams: ['candle'],
      candles: [{ symbol: 'btcusdt', interval: '1m' }],
    });
    expect(reply.error).toBeUndefined();
    expect(JSON.parse(reply.result?.content?.[0]?.text ?? '{}')).toEqual({
      streams: ['candle'],
      candles: [{ symbol: 'BTCUSDT', interval: '1m' }],
    });

    const barOpen = Date.UTC(2026, 0, 15, 12, 0);
    const closed = await step(watcher.s.next(candle((p) => p.closed === true)));
    expect(closed.params).toMatchObject({
      symbol: 'BTCUSDT',
      interval: '1m',
      openTime: barOpen,
      closeTime: barOpen + 60_000 - 1,
      closed: true,
    });
    const p = closed.params ?? {};
    for (const k of ['open', 'high', 'low', 'close', 'volume']) expect(p[k]).toMatch(/^\d+(\.\d+)?$/);
    expect(Number(p.high)).toBeGreaterThanOrEqual(Math.max(Number(p.open), Number(p.close)));
    expect(Number(p.low)).toBeLessThanOrEqual(Math.min(Number(p.open), Number(p.close)));

    // The bar was pushed while forming too, but throttled: 60 simulated seconds went by in about a wall second
    const forming = watcher.candles.filter((c) => c.p.closed === false && c.p.openTime === barOpen);
    expect(forming.length).toBeGreaterThanOrEqual(2);
    expect(forming.length).toBeLessThan(60);
    // Publishes are at least 250 ms apart; delivery (NOTIFY, the socket) may shift single arrivals, not the count
    const span = (forming.at(-1)?.at ?? 0) - (forming[0]?.at ?? 0);
    expect(forming.length).toBeLessThanOrEqual(Math.floor(span / CANDLE_PUSH_MIN_MS) + 2);
    // Exactly one closing push per bar, and the next bar forms after it
    await step(watcher.s.next(candle((p) => p.openTime === barOpen + 60_000)));
    expect(watcher.candles.filter((c) => c.p.closed === true && c.p.openTime === barOpen)).toHaveLength(1);
    expect(bystander.candles).toEqual([]);
  });

  it('shares one upstream stream between sockets, and closes it a linger after the last one leaves', async () => {
    const a = await openSocket();
    const b = await openSocket();
    const pair = { streams: ['candle'], candles: [{ symbol: 'SOLUSDT', interval: '5m' }] };
    await a.s.request('streams/subscribe', pair);
    await b.s.request('streams/subscribe', pair);
    expect(t.app.liveStreams?.candleStreams).toContain('SOLUSDT@5m');
    expect(t.app.liveStreams?.candleStreams.filter((c) => c === 'SOLUSDT@5m')).toHaveLength(1);
    const sol = candle((p) => p.symbol === 'SOLUSDT' && p.interval === '5m');
    const [pa, pb] = await step(Promise.all([a.s.next(sol), b.s.next(sol)]));
    expect(pa.params?.openTime).toBe(pb.params?.openTime);

    // One leaves: the other still streams
    await a.s.request('streams/subscribe', { streams: ['candle'], candles: [] });
    const before = a.candles.length;
    await step(b.s.next(sol));
    expect(a.candles.length).toBe(before);
    // The last one leaves: the upstream stream lingers, then closes
    await b.s.request('streams/subscribe', { streams: ['candle'], candles: [] });
    expect(t.app.liveStreams?.candleStreams).toContain('SOLUSDT@5m');
    // Its closing is a state to wait for, not a fixed sleep (the linger itself is timed on a manual clock in
    // src/core/live/live-streams.test.ts)
    await vi.waitFor(() => expect(t.app.liveStreams?.candleStreams).not.toContain('SOLUSDT@5m'), {
      timeout: 10_000,
    });
  });

  it('applies subscriptions in the order they were sent, even when the first waits for the symbol check', async () => {
    const { s, candles } = await openSocket();
    // Sent back to back: the first checks its candle symbol with the exchange, the second has nothing to check
    const first = s.request('streams/subscribe', {
      streams: ['candle'],
      candles: [{ symbol: 'BTCUSDT', interval: '4h' }],
    });
    const second = s.request('streams/subscribe', { streams: ['ticker'], candles: [] });
    const [a, b] = await Promise.all([first, second]);
    expect([a.error, b.error]).toEqual([undefined, undefined]);
    // The second stands: tickers (the default symbols) and no candles
    await step(s.next((f) => f.method === 'notifications/ticker'));
    expect(candles).toEqual([]);
  });

  it('refuses unknown symbols and intervals naming them, and keeps the previous pairs', async () => {
    const { s } = await openSocket();
    await s.request('streams/subscribe', {
      streams: ['candle'],
      candles: [{ symbol: 'BTCUSDT', interval: '1h' }],
    });

    const unknown = await s.request('streams/subscribe', {
      streams: ['candle'],
      candles: [
        { symbol: 'BTCUSDT', interval: '1m' },
        { symbol: 'NOPEUSDT', interval: '1m' },
      ],
    });
    expect(unknown.error).toEqual({
      code: -32602,
      message: 'Invalid params: candles: the exchange does not list NOPEUSDT',
      data: { unlisted: ['NOPEUSDT'] },
    });
    const interval = await s.request('streams/subscribe', {
      streams: ['candle'],
      candles: [{ symbol: 'BTCUSDT', interval: '7m' }],
    });
    expect(interval.error).toEqual({
      code: -32602,
      message: `Invalid params: candles[0].interval: interval must be one of ${KLINE_INTERVALS.join(', ')}`,
    });
    const many = await s.request('streams/subscribe', {
      streams: ['candle'],
      candles: KLINE_INTERVALS.map((i) => ({ symbol: 'BTCUSDT', interval: i })),
    });
    expect(many.error?.message).toBe('Invalid params: candles: at most 10 candle streams');

    // The refused requests changed nothing: the 1h pair still streams, the 1m one was never added for this socket
    const hourly = await step(s.next(candle((p) => p.symbol === 'BTCUSDT')));
    expect(hourly.params?.interval).toBe('1h');
    expect(t.app.liveStreams?.candleStreams).toContain('BTCUSDT@1h');
  });
});
