import { describe, expect, it } from 'vitest';
import { type FirstReadsRuntime, prefetchFirstReads } from './first-reads';

function runtime(options: { connected: boolean; watchList?: string; signedIn?: boolean }) {
  const asked: Array<{ path: string; query?: Record<string, unknown> }> = [];
  const stored = new Map<string, string>();
  if (options.watchList) stored.set('kestrel-watch-list:u1', options.watchList);
  const rt = {
    api: {
      prefetch: (path: string, query?: Record<string, unknown>) =>
        asked.push({ path, ...(query ? { query } : {}) }),
    },
    storage: { getItem: (k: string) => stored.get(k) ?? null },
    session: {
      state:
        options.signedIn === false
          ? { status: 'signed-out', user: null }
          : { status: 'signed-in', user: { id: 'u1' } },
    },
    exchanges: { connections: { binance: { status: options.connected ? 'connected' : 'disconnected' } } },
  } as unknown as FirstReadsRuntime;
  return { rt, asked };
}

describe("the first reads of /dashboard, started with the shell's start", () => {
  it('ask for the overview with an exchange connected, and the candles of the chart the page will show', () => {
    const { rt, asked } = runtime({ connected: true });
    prefetchFirstReads(rt, { pathname: '/dashboard', search: '' });
    expect(asked).toEqual([
      { path: '/api/v1/dashboard/overview' },
      { path: '/api/v1/market/klines/BTCUSDT', query: { interval: '1h', limit: 100 } },
    ]);
  });

  it("follow the address's symbol when the watch list holds it, else the list's first; no overview without keys", () => {
    const { rt, asked } = runtime({ connected: false, watchList: '["ETHUSDT","SOLUSDT"]' });
    prefetchFirstReads(rt, { pathname: '/dashboard', search: '?symbol=SOLUSDT&interval=15m' });
    prefetchFirstReads(rt, { pathname: '/dashboard', search: '?symbol=XRPUSDT' });
    expect(asked).toEqual([
      { path: '/api/v1/market/klines/SOLUSDT', query: { interval: '15m', limit: 100 } },
      { path: '/api/v1/market/klines/ETHUSDT', query: { interval: '1h', limit: 100 } },
    ]);
  });

  it('ask for nothing on other pages or signed out', () => {
    const other = runtime({ connected: true });
    prefetchFirstReads(other.rt, { pathname: '/portfolio', search: '' });
    const out = runtime({ connected: true, signedIn: false });
    prefetchFirstReads(out.rt, { pathname: '/dashboard', search: '' });
    expect([...other.asked, ...out.asked]).toEqual([]);
  });
});
