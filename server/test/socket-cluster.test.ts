import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateMasterKey, makeKeyring } from '../src/lib/crypto/master-key';
import type { Database } from '../src/lib/database/database';
import { openPostgresDatabase } from '../src/lib/database/postgres-database';
import {
  bearer,
  buildTestApp,
  openTestDatabase,
  postgresUrl,
  signUp,
  startTestServer,
  type TestApp,
  type TestDatabase,
  type TestServer,
} from './helper';
import { listenWs, TestSocket, wsUrl } from './socket-helper';

const url = await postgresUrl();

// Two server instances, each with its own pool and LISTEN connection, on one PostgreSQL schema: a push published
// on one reaches sockets connected to the other. Skips when no PostgreSQL answers on 127.0.0.1:5432.
describe.skipIf(!url)('live socket pushes across two server instances (PostgreSQL)', () => {
  let tdb: TestDatabase;
  let dbB: Database;
  let a: TestApp;
  let b: TestApp;
  let baseA: string;
  let baseB: string;
  const sockets: TestSocket[] = [];
  const open = async (base: string, token: string) => {
    const s = await TestSocket.open(wsUrl(base, token));
    sockets.push(s);
    await s.request('tools/list'); // registered once the first reply comes back
    return s;
  };

  beforeAll(async () => {
    tdb = await openTestDatabase('postgres');
    const [row] = await tdb.db.query<{ schema: string }>('SELECT current_schema() AS schema');
    dbB = await openPostgresDatabase({
      connectionString: url as string,
      schema: row?.schema as string,
      max: 4,
    });
    // Same master key on both, as a real deployment shares KESTREL_MASTER_KEY: a token from one verifies on the other
    const keyring = makeKeyring([generateMasterKey()]);
    a = await buildTestApp(tdb.db, { keyring });
    b = await buildTestApp(dbB, { keyring });
    baseA = await listenWs(a);
    baseB = await listenWs(b);
  });
  afterAll(async () => {
    await Promise.all(sockets.map((s) => s.close()));
    await a?.app.close();
    await b?.app.close();
    await dbB?.close();
    await tdb?.cleanup();
  });

  it('delivers a push published on instance A to the user’s socket on instance B, and to no other user', async () => {
    const alice = await signUp(a);
    const bob = await signUp(a);
    const aliceOnB = await open(baseB, alice.access_token);
    const aliceOnA = await open(baseA, alice.access_token);
    const bobOnB = await open(baseB, bob.access_token);
    expect(a.app.socketBus.channel).toBe(b.app.socketBus.channel);

    const order = { symbol: 'BTCUSDT', orderId: '9', status: 'FILLED', time: 1 };
    await a.app.socketBus.publish(alice.user.id, { kind: 'order', data: order });
    expect((await aliceOnB.next()).params).toEqual(order);
    expect((await aliceOnA.next()).params).toEqual(order);

    await b.app.socketBus.publish(bob.user.id, { kind: 'balance', data: { asset: 'USDT', time: 2 } });
    expect((await bobOnB.next()).method).toBe('notifications/balance'); // not Alice's order
  });

  it('carries a push over 8000 bytes between instances (real NOTIFY limit)', async () => {
    const carol = await signUp(b);
    const s = await open(baseB, carol.access_token);
    const data = {
      botId: 'bot-9',
      type: 'report',
      time: 3,
      lines: Array.from({ length: 600 }, (_, i) => `line ${i} ✓`),
    };
    expect(Buffer.byteLength(JSON.stringify(data))).toBeGreaterThan(8000);
    await a.app.socketBus.publish(carol.user.id, { kind: 'bot', data });
    expect((await s.next()).params).toEqual(data);
  });
});

// Both instances follow the same account's exchange stream (each has one of the user's sockets) and publish
// every event; the bus drops the second copy, so each socket gets each notice once
describe.skipIf(!url)('live exchange pushes with the user on two instances (PostgreSQL)', () => {
  let a: TestServer;
  let dbB: Database;
  let b: TestApp;
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    const env = { KESTREL_LIVE_SYMBOLS: 'BTCUSDT' };
    a = await startTestServer({ database: 'postgres', simulator: { historyDays: 2 }, env });
    const [row] = await a.database.db.query<{ schema: string }>('SELECT current_schema() AS schema');
    dbB = await openPostgresDatabase({
      connectionString: url as string,
      schema: row?.schema as string,
      max: 4,
    });
    b = await buildTestApp(dbB, { keyring: a.keyring }, { KESTREL_EXCHANGE_BASE_URL: a.simUrl, ...env });
  });
  afterAll(async () => {
    await Promise.all(sockets.map((s) => s.close()));
    await b?.app.close();
    await dbB?.close();
    await a?.close();
  });

  it('sends each order, balance and position notice once to each of the user’s sockets', async () => {
    const { auth: alice } = await a.connectedUser();
    const onA = await TestSocket.open(wsUrl(await listenWs(a), alice.access_token, 'tab-a'));
    const onB = await TestSocket.open(wsUrl(await listenWs(b), alice.access_token, 'tab-b'));
    sockets.push(onA, onB);
    await Promise.all([
      onA.request('streams/subscribe', { streams: ['order', 'balance', 'position', 'bot'] }),
      onB.request('streams/subscribe', { streams: ['order', 'balance', 'position', 'bot'] }),
    ]);
    await a.app.liveStreams?.whenUserStreamOpen(alice.user.id);
    await b.app.liveStreams?.whenUserStreamOpen(alice.user.id);
    const publishedBefore = [a, b].map((t) => t.app.liveStreams?.publishedCount ?? 0);

    const placed = await a.request({
      method: 'POST',
      url: '/api/futures/orders/create',
      headers: bearer(alice.access_token),
      payload: { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.010' },
    });
    expect(placed.statusCode).toBe(201);
    // NEW, TRADE, one balance and one position: four pushes published by each instance
    await vi.waitFor(() => {
      for (const [i, t] of [a, b].entries())
        expect((t.app.liveStreams?.publishedCount ?? 0) - (publishedBefore[i] ?? 0)).toBe(4);
    });
    // Everything published before these markers has reached the sockets when the markers do
    for (const t of [a, b])
      await t.app.socketBus.publish(alice.user.id, {
        kind: 'bot',
        data: { botId: 'marker', type: 'end', time: 1 },
      });
    for (const s of [onA, onB]) {
      await s.next((f) => f.method === 'notifications/bot');
      await s.next((f) => f.method === 'notifications/bot');
      const kinds = s.frames.map((f) => `${f.method}:${f.params?.executionType ?? ''}`).sort();
      expect(kinds).toEqual([
        'notifications/balance:',
        'notifications/order:NEW',
        'notifications/order:TRADE',
        'notifications/position:',
      ]);
    }
  });
});
