/**
 * Downloading a year of 1m klines from the simulator (what a backtest does before it starts): 351 pages of 1500
 * bars over loopback HTTP, beside the same number of plain `GET ping` requests in the same run.
 */
import { Agent, request } from 'node:http';
import { SimServer } from '@kestrel/exchange-sim';

const YEAR_MS = 365 * 86_400_000;
const PAGE = 1500;

export default async function simKlines(): Promise<void> {
  const t0 = performance.now();
  const sim = new SimServer({ symbols: ['BTCUSDT'], historyDays: 366, rateLimits: { weightPerMinute: 1e9 } });
  const { url } = await sim.listen(0);
  const startupMs = performance.now() - t0;
  const agent = new Agent({ keepAlive: true });
  const get = (path: string) =>
    new Promise<string>((resolve, reject) => {
      request(`${url}${path}`, { agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(Buffer.concat(chunks).toString()));
      })
        .on('error', reject)
        .end();
    });
  try {
    const start = Math.floor((Date.now() - YEAR_MS) / 60_000) * 60_000;
    let bars = 0;
    let pages = 0;
    const k0 = performance.now();
    for (let from = start; from < Date.now(); from += PAGE * 60_000) {
      const rows = JSON.parse(
        await get(`/fapi/v1/klines?symbol=BTCUSDT&interval=1m&limit=${PAGE}&startTime=${from}`),
      );
      bars += (rows as unknown[]).length;
      pages++;
    }
    const klinesMs = performance.now() - k0;
    const p0 = performance.now();
    for (let i = 0; i < pages; i++) await get('/fapi/v1/ping');
    const pingMs = performance.now() - p0;
    console.info(
      `simulator start with a year of history ${startupMs.toFixed(0)} ms; ${bars} 1m bars in ${pages} pages ` +
        `${klinesMs.toFixed(0)} ms (${((bars / klinesMs) * 1000).toFixed(0)} bars/s); ${pages} pings ${pingMs.toFixed(0)} ms; ` +
        `klines page / ping time ratio ${(klinesMs / pingMs).toFixed(1)}`,
    );
  } finally {
    agent.destroy();
    await sim.close();
  }
}
