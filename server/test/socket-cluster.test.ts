import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateMasterKey, makeKeyring } from '../src/lib/crypto/master-key';
import type { Database } from '../src/lib/database/database';
import { openPostgresDatabase } from '../src/lib/database/postgres-database';
import {
  buildTestApp,
  openTestDatabase,
  postgresUrl,
  signUp,
  type TestApp,
  type TestDatabase,
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
