import { KLINE_INTERVALS } from '@kestrel/contracts';
import { barOpenTime, intervalToMs, nextBarOpenTime } from '@kestrel/engine';
import { INTERVALS, ManualClock, SimServer } from '@kestrel/exchange-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The engine's bar math against the exchange simulator's bars. The simulator plays Binance and keeps its own
 * interval code on purpose (sharing ours would let it agree with our bugs), so this test is where the two must
 * agree: the same interval names, and every bar the simulator serves opening and closing where the engine says.
 * The simulator exports no `barOpen`/`nextBarOpen`, so it is asked over its REST API, as the server asks it.
 */

// History from 22 November 2023 to 20 March 2024: a year change, the leap day 29 February and four month starts
const NOW = Date.UTC(2024, 2, 20, 12);
const HISTORY_DAYS = 120;
const HISTORY_START = NOW - HISTORY_DAYS * 86_400_000;
const LEAP_DAY = Date.UTC(2024, 1, 29);

/** One row of `GET /fapi/v1/klines` */
type KlineRow = [number, string, string, string, string, string, number, ...unknown[]];

describe('kline intervals: the engine and the exchange simulator', () => {
  let sim: SimServer;
  let url: string;

  beforeAll(async () => {
    sim = new SimServer({ clock: new ManualClock(NOW), historyDays: HISTORY_DAYS, symbols: ['BTCUSDT'] });
    ({ url } = await sim.listen(0));
  });
  afterAll(() => sim?.close());

  async function klines(interval: string, startTime: number, endTime: number): Promise<KlineRow[]> {
    const query = `symbol=BTCUSDT&interval=${interval}&startTime=${startTime}&endTime=${endTime}&limit=1500`;
    const response = await fetch(`${url}/fapi/v1/klines?${query}`);
    expect(response.status, await response.clone().text()).toBe(200);
    return (await response.json()) as KlineRow[];
  }

  it('name the same intervals as the API', () => {
    expect([...INTERVALS]).toEqual([...KLINE_INTERVALS]);
  });

  it.each([...KLINE_INTERVALS])(
    'open and close %s bars at the same times around the leap day',
    async (interval) => {
      // Up to 40 bars on each side of the leap day, within the simulator's history (all of it for 1w and 1M)
      const reach = 40 * intervalToMs(interval);
      const start = Math.max(HISTORY_START, LEAP_DAY - reach);
      const end = Math.min(NOW - 1, LEAP_DAY + reach);
      const rows = await klines(interval, start, end);
      expect(rows.length).toBeGreaterThan(1);
      const opens = rows.map((row) => row[0]);
      for (const [open, , , , , , close] of rows) {
        expect(barOpenTime(interval, open), `${interval} bar opening at ${open}`).toBe(open);
        expect(close, `${interval} bar opening at ${open}`).toBe(nextBarOpenTime(interval, open) - 1);
      }
      // The simulator's history has no gaps: each bar opens where the engine says the one before ends
      expect(opens.slice(1)).toEqual(opens.slice(0, -1).map((open) => nextBarOpenTime(interval, open)));
      if (interval === '1M') {
        expect(opens).toContain(Date.UTC(2024, 0, 1));
        expect(opens).toContain(Date.UTC(2024, 1, 1));
        expect(rows.find((row) => row[0] === Date.UTC(2024, 1, 1))?.[6]).toBe(Date.UTC(2024, 2, 1) - 1);
      } else {
        // The leap day's midnight is a bar boundary for every interval up to 1d, and inside a 3d and a 1w bar
        expect(opens).toContain(barOpenTime(interval, LEAP_DAY));
      }
    },
  );
});
