import { ManualClock } from '@kestrel/exchange-sim';
import { afterAll, beforeAll } from 'vitest';
import type { AppDeps } from '../src/app';
import type { TestServer } from './helper';
import { listenWs, stepping, TestSocket, wsUrl } from './socket-helper';
import { useTestServer } from './suite-fixtures';

/** A live-push suite's server and the sockets its tests open (filled in by the suite's `beforeAll`) */
export interface LiveSockets {
  t: TestServer;
  /** The simulator's time, from noon 2026-01-15 UTC (a minute boundary): it moves only when a test moves it */
  clock: ManualClock;
  /** The socket base URL of the listening app */
  base: string;
  /** Every socket opened, closed at the suite's end */
  sockets: TestSocket[];
  /** Moves the simulator's time a second at a time until `done` settles: market payloads flow only then */
  step<T>(done: Promise<T>): Promise<T>;
}

/**
 * `useTestServer` for the live-push suites: the simulator on BTCUSDT and SOLUSDT (SOLUSDT streamed for everyone,
 * `KESTREL_LIVE_SYMBOLS`), the app listening for sockets, the sockets closed before the server
 */
export function useLiveSockets(options: { historyDays: number; deps?: Partial<AppDeps> }): LiveSockets {
  const clock = new ManualClock(Date.UTC(2026, 0, 15, 12));
  const t = useTestServer({
    simulator: { clock, historyDays: options.historyDays, symbols: ['BTCUSDT', 'SOLUSDT'] },
    env: { KESTREL_LIVE_SYMBOLS: 'SOLUSDT' },
    ...(options.deps ? { deps: options.deps } : {}),
  });
  const live: LiveSockets = {
    t,
    clock,
    base: '',
    sockets: [],
    step: (done) => stepping({ clock, sim: t.sim }, done),
  };
  beforeAll(async () => {
    live.base = await listenWs(t);
  });
  afterAll(async () => {
    await Promise.all(live.sockets.map((s) => s.close()));
  });
  return live;
}

/** Opens a socket of `token`'s user on the live server and lists its tools (the socket is ready then) */
export async function openToolSocket(
  live: LiveSockets,
  token: string,
  clientId: string,
): Promise<TestSocket> {
  const s = await TestSocket.open(wsUrl(live.base, token, clientId));
  live.sockets.push(s);
  await s.request('tools/list');
  return s;
}
