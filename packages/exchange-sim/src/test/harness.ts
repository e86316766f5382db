import { createHmac } from 'node:crypto';
import { ManualClock } from '../common/clock';
import { resolveSymbols, type SymbolSpec } from '../common/symbols';
import { SimServer, type SimServerOptions } from '../http/server';
import { ReplayFeed } from '../matching/replay-feed';
import type { Account } from '../matching/types';

/** A Thursday morning, away from funding times, minute and hour boundaries */
export const T0 = Date.UTC(2026, 0, 15, 9, 30, 20);

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

export interface Harness {
  sim: SimServer;
  clock: ManualClock;
  url: string;
  wsUrl: string;
  /** Moves the clock to `ms` and lets the simulator process every second up to it */
  until: (ms: number) => void;
  close: () => Promise<void>;
}

/** A simulator on a loopback port with a manual clock and a short history, so tests start in milliseconds */
export async function startSim(options: SimServerOptions = {}): Promise<Harness> {
  const clock = options.clock instanceof ManualClock ? options.clock : new ManualClock(T0);
  const sim = new SimServer({ historyDays: 3, firstOrderId: 1000n, seed: 7, ...options, clock });
  const where = await sim.listen(0);
  const until = (ms: number) => {
    clock.set(ms);
    sim.tick();
  };
  return { sim, clock, url: where.url, wsUrl: where.wsUrl, until, close: () => sim.close() };
}

export async function request(
  url: string,
  method: string,
  path: string,
  init: { query?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const res = await fetch(`${url}${path}${init.query ? `?${init.query}` : ''}`, {
    method,
    headers: {
      ...(init.body !== undefined ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      ...init.headers,
    },
    body: init.body,
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

export function sign(secret: string, payload: string): string {
  return createHmac('sha256', secret).update(payload).digest('hex');
}

/** A minimal hand-written fapi client: signs the query the way Binance documents it */
export class Client {
  constructor(
    readonly url: string,
    readonly account: Pick<Account, 'apiKey' | 'secretKey'>,
    readonly clock: { now(): number },
  ) {}

  async signed(
    method: string,
    path: string,
    params: Record<string, string | number | boolean> = {},
  ): Promise<Reply> {
    const query = new URLSearchParams(
      Object.entries({ ...params, timestamp: this.clock.now() }).map(([k, v]) => [k, String(v)]),
    ).toString();
    return request(this.url, method, path, {
      query: `${query}&signature=${sign(this.account.secretKey, query)}`,
      headers: { 'X-MBX-APIKEY': this.account.apiKey },
    });
  }

  async keyed(method: string, path: string): Promise<Reply> {
    return request(this.url, method, path, { headers: { 'X-MBX-APIKEY': this.account.apiKey } });
  }

  async get(path: string, params: Record<string, string | number> = {}): Promise<Reply> {
    const query = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
    return request(this.url, 'GET', path, { query });
  }
}

/** The parameters of a plain market order, in the order Binance's docs list them */
export function marketOrder(symbol: string, side: 'BUY' | 'SELL', quantity: string) {
  return { symbol, side, type: 'MARKET', quantity };
}

/** The parameters of a good-till-canceled limit order */
export function limitOrder(symbol: string, side: 'BUY' | 'SELL', quantity: string, price: string) {
  return { symbol, side, type: 'LIMIT', timeInForce: 'GTC', quantity, price };
}

/** Object access for parsed JSON in tests */
export function obj(v: unknown): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw new Error(`Expected an object, got ${JSON.stringify(v)}`);
  return v as Record<string, unknown>;
}

export function arr(v: unknown): unknown[] {
  if (!Array.isArray(v)) throw new Error(`Expected an array, got ${JSON.stringify(v)}`);
  return v;
}

/**
 * A replayed price path made of flat 1-minute bars: `legs` say from which minute (relative to T0's minute) the price
 * is what, so a test knows every price the matching engine will see
 */
export function flatReplay(
  symbol: string,
  legs: ReadonlyArray<{ fromMinute: number; price: number }>,
  minutes = { from: -120, to: 24 * 60 },
): ReplayFeed {
  const spec = resolveSymbols([symbol])[0] as SymbolSpec;
  const base = Math.floor(T0 / 60_000);
  const bars = [];
  for (let m = minutes.from; m <= minutes.to; m++) {
    const leg = [...legs].reverse().find((l) => l.fromMinute <= m) ?? legs[0];
    const price = leg?.price ?? 1;
    bars.push({
      openTime: (base + m) * 60_000,
      open: price,
      high: price,
      low: price,
      close: price,
      volume: 10,
    });
  }
  return new ReplayFeed(spec, bars);
}

/** Start of T0's minute plus `m` minutes */
export function minute(m: number): number {
  return (Math.floor(T0 / 60_000) + m) * 60_000;
}
