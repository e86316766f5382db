import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock, SimServer } from '@kestrel/exchange-sim';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { SIM_START } from '../../src/testing';

/**
 * Issue "Hardening", finding 3: a copy of the data folder (a backup, the database volume's snapshot) must open no
 * stored API secret and forge no login. Before the keys moved out, the folder held master.key beside PGlite, and
 * that one key both opened the vault and signed the tokens.
 */
describe('a stolen copy of the data folder', () => {
  let root: string;
  let sim: SimServer;
  let simUrl: string;
  let owner: FastifyInstance | undefined;
  let thief: FastifyInstance | undefined;

  /** The real server on embedded defaults: PGlite in `dataDir`, keys generated in `keysDir` */
  const startServer = (dataDir: string, keysDir: string) =>
    buildApp(
      loadConfig({
        KESTREL_DATA_DIR: dataDir,
        KESTREL_KEYS_DIR: keysDir,
        KESTREL_LOG_LEVEL: 'silent',
        KESTREL_EXCHANGE_ENV: 'simulator',
        KESTREL_EXCHANGE_BASE_URL: simUrl,
        KESTREL_ACCOUNT_RECORDER: 'off',
      }),
    );

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'kestrel-stolen-'));
    sim = new SimServer({ clock: new ManualClock(SIM_START), historyDays: 1, symbols: ['BTCUSDT'] });
    simUrl = (await sim.listen(0)).url;
  });
  afterAll(async () => {
    await owner?.close();
    await thief?.close();
    await sim?.close();
    await rm(root, { recursive: true, force: true });
  });

  it('opens no stored secret and accepts no token the owner’s server signed', async () => {
    owner = await startServer(join(root, 'data'), join(root, 'keys'));
    const signup = await owner.inject({
      method: 'POST',
      url: '/api/v1/auth/signup',
      payload: { email: 'victim@example.test', password: 'correct horse battery', name: 'Victim' },
    });
    expect(signup.statusCode).toBe(201);
    const { access_token: token } = signup.json() as { access_token: string };
    const keys = sim.exchange.createAccount({ balances: { USDT: '1000' } });
    const stored = await owner.inject({
      method: 'POST',
      url: '/api/v1/credentials/binance',
      headers: { authorization: `Bearer ${token}` },
      payload: { api_key: keys.apiKey, secret_key: keys.secretKey },
    });
    expect(stored.statusCode).toBe(201);
    // The owner's own server reads the account with the stored key
    const account = await owner.inject({
      method: 'GET',
      url: '/api/futures/account/info',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(account.statusCode).toBe(200);
    await owner.close();
    owner = undefined;

    // The thief has the data folder, not the keys folder beside it
    await cp(join(root, 'data'), join(root, 'stolen'), { recursive: true });
    thief = await startServer(join(root, 'stolen'), join(root, 'thief-keys'));

    const forged = await thief.inject({
      method: 'GET',
      url: '/api/v1/auth/me',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(forged.statusCode).toBe(401);

    const row = (await thief.db.query<{ user_id: string }>('SELECT user_id FROM exchange_credentials'))[0];
    expect(row).toBeDefined();
    await expect(
      thief.credentialsService.keysFor({ userId: row?.user_id as string, environment: 'testnet' }),
    ).rejects.toThrow(/failed their integrity check and cannot be used/);
    // Two embedded databases open and migrate here, each a few seconds on a busy machine
  }, 120_000);
});
