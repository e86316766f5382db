import { afterEach, describe, expect, it } from 'vitest';
import { arr, Client, type Harness, obj, startSim } from './harness';
import { fixture, shapeDiff } from './shape';
import { type Msg, Sockets } from './sockets';

let h: Harness;
let client: Client;
const sockets = new Sockets();
afterEach(async () => {
  sockets.terminateAll();
  await h.close();
});

async function start() {
  h = await startSim();
  client = new Client(h.url, { apiKey: 'x'.repeat(64), secretKey: 'y'.repeat(64) }, h.clock);
}

function step(ms = 1000) {
  h.until(h.clock.now() + ms);
}

/** The REST row's fields of a streamed aggTrade event */
function asRow(m: Msg) {
  return { a: m.a, p: m.p, q: m.q, f: m.f, l: m.l, T: m.T, m: m.m };
}

async function aggTrades(params: Record<string, string | number>) {
  const res = await client.get('/fapi/v1/aggTrades', { symbol: 'BTCUSDT', ...params });
  return { status: res.status, json: res.json, weight: Number(res.headers.get('x-mbx-used-weight-1m')) };
}

/** Streams `n` seconds of BTCUSDT aggTrade events */
async function streamed(n: number): Promise<Msg[]> {
  const s = sockets.connect(`${h.wsUrl}/market/ws/btcusdt@aggTrade`);
  await s.opened;
  for (let i = 0; i < n; i++) {
    step();
    await s.next((m) => m.E === h.clock.now());
  }
  return s.seen;
}

describe('GET /fapi/v1/aggTrades', () => {
  it('answers the trades the aggTrade stream pushed, oldest first, in Binance shape', async () => {
    await start();
    const pushed = await streamed(4);
    expect(pushed).toHaveLength(4);
    const res = await aggTrades({ limit: 4 });
    expect(res.status).toBe(200);
    expect(shapeDiff(fixture('http_get_agg_trades.json'), res.json, true)).toEqual([]);
    expect(res.json).toEqual(pushed.map(asRow));
    const rows = arr(res.json).map(obj);
    expect(rows.map((r) => r.a)).toEqual(pushed.map((m) => m.a));
    expect(rows.every((r) => typeof r.m === 'boolean')).toBe(true);
    // A second simulator with the same seed prints the same trades
    const again = await startSim({ clock: h.clock });
    try {
      const other = new Client(again.url, client.account, h.clock);
      expect((await other.get('/fapi/v1/aggTrades', { symbol: 'BTCUSDT', limit: 4 })).json).toEqual(res.json);
    } finally {
      await again.close();
    }
  });

  it('pages by fromId and selects by time, ends inclusive', async () => {
    await start();
    const pushed = await streamed(5);
    const ids = pushed.map((m) => Number(m.a));
    const first = ids[0] as number;
    const fromId = await aggTrades({ fromId: first + 1, limit: 2 });
    expect(arr(fromId.json).map((r) => obj(r).a)).toEqual([first + 1, first + 2]);
    const times = pushed.map((m) => Number(m.T));
    const window = await aggTrades({ startTime: times[1] as number, endTime: times[3] as number });
    expect(window.json).toEqual(pushed.slice(1, 4).map(asRow));
    // Mid-second bounds: trades print at the start of each second
    const inner = await aggTrades({ startTime: (times[1] as number) + 1, endTime: (times[3] as number) - 1 });
    expect(arr(inner.json).map((r) => obj(r).a)).toEqual([ids[2]]);
    expect((await aggTrades({ fromId: (ids.at(-1) as number) + 1 })).json).toEqual([]);
    // Only endTime: the latest trades up to it
    const until = await aggTrades({ endTime: times[2] as number, limit: 2 });
    expect(until.json).toEqual(pushed.slice(1, 3).map(asRow));
  });

  it('gives the 500 most recent by default, at most 1000, for weight 20', async () => {
    await start();
    step(20 * 60_000);
    const def = await aggTrades({});
    const rows = arr(def.json).map(obj);
    expect(rows).toHaveLength(500);
    expect(rows.at(-1)?.T).toBe(h.clock.now());
    expect(rows.map((r) => Number(r.a))).toEqual(rows.map((_, i) => Number(rows[0]?.a) + i));
    // Both sides trade
    expect(new Set(rows.map((r) => r.m))).toEqual(new Set([true, false]));
    const max = await aggTrades({ limit: 1000 });
    expect(arr(max.json)).toHaveLength(1000);
    expect(max.weight - def.weight).toBe(20);
  });

  it("keeps a streamed trade's price when a price command moves that second", async () => {
    await start();
    const [trade] = await streamed(1);
    const price = Number((trade as Msg).p);
    h.sim.exchange.setPrice('BTCUSDT', { price: (price + 100).toFixed(2) });
    const res = await aggTrades({ fromId: Number((trade as Msg).a), limit: 1 });
    expect(res.json).toEqual([asRow(trade as Msg)]);
  });

  it("refuses bad parameters with Binance's errors", async () => {
    await start();
    const cases: Array<[Record<string, string | number>, number, string?]> = [
      [{ symbol: 'NOPEUSDT' }, -1121, 'Invalid symbol.'],
      [{ symbol: '' }, -1102],
      [{ limit: 0 }, -1130],
      [{ limit: 1001 }, -1130],
      [{ fromId: 'x' }, -1100],
      [{ startTime: 2_000_000, endTime: 1_000_000 }, -1130],
      [
        { startTime: h.clock.now() - 3_600_001, endTime: h.clock.now() },
        -1127,
        'More than 1 hours between startTime and endTime.',
      ],
    ];
    for (const [params, code, msg] of cases) {
      const res = await aggTrades(params);
      expect(res.status, JSON.stringify(params)).toBe(400);
      expect(obj(res.json).code, JSON.stringify(params)).toBe(code);
      if (msg) expect(res.json).toEqual({ code, msg });
    }
    expect(
      arr((await aggTrades({ startTime: h.clock.now() - 3_600_000, endTime: h.clock.now() })).json),
    ).toHaveLength(500);
  });
});
