import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AccountTestResponseSchema,
  type AccountTestResult,
  BinanceCredentialsResponseSchema,
  CredentialsStatusResponseSchema,
  ErrorResponseSchema,
} from '@kestrel/contracts';
import { describe, expect, it } from 'vitest';
import { rotateMasterKey } from '../src/commands/rotate-master-key';
import { loadConfig } from '../src/config';
import {
  type ExchangeCredentials,
  type ExchangeProbe,
  ExchangeUnreachableError,
} from '../src/core/credentials/exchange-probe';
import {
  encodeMasterKey,
  generateMasterKey,
  type Keyring,
  loadKeyring,
  makeKeyring,
} from '../src/lib/crypto/master-key';
import { bearer, buildTestApp, type Driver, postgresUrl, signUp, type TestApp, useTestApp } from './helper';
import { PROBE_ACCOUNT } from './probe-account';

const pgUp = (await postgresUrl()) !== undefined;

/**
 * The exchange behind the vault's probe. Saving keys checks them with the exchange, so it is up while a test saves
 * them (`whileUp`) and down otherwise, which is what the connectivity tests below read back
 */
const exchange = { up: false };
const switchableProbe: ExchangeProbe = {
  async testAccount() {
    if (!exchange.up) throw new ExchangeUnreachableError('connect ECONNREFUSED 127.0.0.1');
    return { ...PROBE_ACCOUNT };
  },
};
async function whileUp<T>(fn: () => Promise<T>): Promise<T> {
  exchange.up = true;
  try {
    return await fn();
  } finally {
    exchange.up = false;
  }
}

const API_KEY = 'vmPUZE6mv9SD5VNHk4HlWFsOr6aKE2zvsw0MuIgwCIPy6utIco14y7Ju91duEh8A';
const SECRET_KEY = 'NhqPtmdSJYdKjVHjA7PZj4Mge3R5YNiP1e3UZjInClVN65XAbvqqM6A7H5fATj0j';

describe.each<Driver>(['pglite', 'postgres'])('credentials on %s', (driver) => {
  describe.skipIf(driver === 'postgres' && !pgUp)('', () => {
    const t = useTestApp({ database: driver, deps: { exchange: switchableProbe } });

    const call = (
      app: TestApp,
      method: 'GET' | 'POST' | 'DELETE',
      url: string,
      token: string,
      payload?: object,
    ) =>
      app.request({
        method,
        url: `/api/v1/credentials${url}`,
        headers: bearer(token),
        ...(payload ? { payload } : {}),
      });
    const store = (token: string, api_key = API_KEY, secret_key = SECRET_KEY) =>
      whileUp(() => call(t, 'POST', '/binance', token, { api_key, secret_key }));
    const errorOf = (res: { json(): unknown }) => ErrorResponseSchema.parse(res.json());

    it('requires a signed-in user on every call', async () => {
      for (const [method, url] of [
        ['GET', '/binance'],
        ['POST', '/binance'],
        ['DELETE', '/binance'],
        ['POST', '/test-connection'],
        ['GET', '/binance/status'],
        ['POST', '/validate/binance'],
      ] as const) {
        const res = await t.request({ method, url: `/api/v1/credentials${url}` });
        expect(res.statusCode, `${method} ${url}`).toBe(401);
      }
    });

    it('stores credentials, shows the key masked and never the secret', async () => {
      const { access_token } = await signUp(t);
      const saved = await store(access_token);
      expect(saved.statusCode).toBe(201);
      const body = BinanceCredentialsResponseSchema.parse(saved.json());
      expect(body.data).toMatchObject({
        exchange: 'binance',
        region: 'global',
        api_key_masked: 'vmPU********Eh8A',
      });

      const got = await call(t, 'GET', '/binance', access_token);
      expect(got.statusCode).toBe(200);
      expect(BinanceCredentialsResponseSchema.parse(got.json()).data.api_key_masked).toBe('vmPU********Eh8A');
      for (const res of [saved, got]) {
        expect(res.body).not.toContain(SECRET_KEY);
        expect(res.body).not.toContain(API_KEY);
      }
    });

    it('keeps the secret encrypted at rest, with no plaintext in any column', async () => {
      const { access_token, user } = await signUp(t);
      await store(access_token);
      const rows = await t.database.db.query('SELECT * FROM exchange_credentials WHERE user_id = $1', [
        user.id,
      ]);
      const dump = JSON.stringify(rows, (_k, v) =>
        v instanceof Uint8Array ? Buffer.from(v).toString('latin1') : v,
      );
      expect(rows).toHaveLength(1);
      expect(dump).not.toContain(SECRET_KEY);
      expect(dump).not.toContain(API_KEY);
      expect(rows[0]?.master_key_id).toBe(t.keyring.current.id);
    });

    it('replaces the stored credentials on a second POST', async () => {
      const { access_token } = await signUp(t);
      await store(access_token);
      await store(access_token, 'abcdEFGHijklMNOPqrst', SECRET_KEY);
      const got = BinanceCredentialsResponseSchema.parse(
        (await call(t, 'GET', '/binance', access_token)).json(),
      );
      expect(got.data.api_key_masked).toBe('abcd********qrst');
    });

    it('deletes them; GET and DELETE then answer 404 with a clear message', async () => {
      const { access_token } = await signUp(t);
      await store(access_token);
      const del = await call(t, 'DELETE', '/binance', access_token);
      expect(del.statusCode).toBe(200);
      const get = await call(t, 'GET', '/binance', access_token);
      expect(get.statusCode).toBe(404);
      expect(errorOf(get).detail).toBe('No Binance credentials stored. Connect Binance first.');
      expect((await call(t, 'DELETE', '/binance', access_token)).statusCode).toBe(404);
    });

    it.each([
      ['an empty api_key', { api_key: '', secret_key: SECRET_KEY }, /API Key is required/],
      ['a missing secret_key', { api_key: API_KEY }, /secret_key/],
      [
        'an unsupported region',
        { api_key: API_KEY, secret_key: SECRET_KEY, region: 'us' },
        /region must be "global"/,
      ],
      ['an unknown field', { api_key: API_KEY, secret_key: SECRET_KEY, testnet: true }, /testnet/],
      ['a number as key', { api_key: 42, secret_key: SECRET_KEY }, /api_key must be a string/],
    ])('rejects %s with 400, without echoing the secret', async (_name, payload, pattern) => {
      const { access_token } = await signUp(t);
      const res = await call(t, 'POST', '/binance', access_token, payload);
      expect(res.statusCode).toBe(400);
      expect(errorOf(res).detail).toMatch(pattern);
      expect(res.body).not.toContain(SECRET_KEY);
    });

    it('one user can neither read, test nor delete another user’s credentials', async () => {
      const alice = await signUp(t);
      const mallory = await signUp(t);
      await store(alice.access_token);
      expect((await call(t, 'GET', '/binance', mallory.access_token)).statusCode).toBe(404);
      expect((await call(t, 'DELETE', '/binance', mallory.access_token)).statusCode).toBe(404);
      const status = CredentialsStatusResponseSchema.parse(
        (await call(t, 'GET', '/binance/status', mallory.access_token)).json(),
      );
      expect(status.data.configured).toBe(false);
      expect((await call(t, 'POST', '/test-connection', mallory.access_token)).statusCode).toBe(400);
      expect((await call(t, 'GET', '/binance', alice.access_token)).statusCode).toBe(200);
    });

    it('answers "exchange not reachable" (503) for test-connection and validate when the exchange is down', async () => {
      const { access_token } = await signUp(t);
      await store(access_token);
      for (const res of [
        await call(t, 'POST', '/test-connection', access_token),
        await call(t, 'POST', '/test-connection', access_token, { api_key: API_KEY, secret_key: SECRET_KEY }),
        await call(t, 'POST', '/validate/binance', access_token, {
          api_key: API_KEY,
          secret_key: SECRET_KEY,
        }),
      ]) {
        expect(res.statusCode).toBe(503);
        const err = errorOf(res);
        expect(err.code).toBe('EXCHANGE_UNREACHABLE');
        // The browser shows its "Binance Connectivity Failed" toast when the error mentions connectivity
        expect(err.detail).toMatch(/^Binance connectivity failed: exchange not reachable/);
        expect(res.body).not.toContain(SECRET_KEY);
      }
    });

    it('answers "Exchange not supported yet" for any exchange other than binance', async () => {
      const { access_token } = await signUp(t);
      for (const [method, url] of [
        ['GET', '/bybit'],
        ['POST', '/kraken'],
        ['DELETE', '/coinbase'],
        ['POST', '/validate/bybit'],
      ] as const) {
        const res = await call(
          t,
          method,
          url,
          access_token,
          method === 'POST' ? { api_key: 'k', secret_key: 's' } : undefined,
        );
        expect(res.statusCode, `${method} ${url}`).toBe(400);
        expect(errorOf(res).detail).toMatch(/^Exchange not supported yet/);
      }
    });

    it('test-connection without stored or given keys says both are required', async () => {
      const { access_token } = await signUp(t);
      const res = await call(t, 'POST', '/test-connection', access_token);
      expect(res.statusCode).toBe(400);
      expect(errorOf(res).detail).toBe('API Key and Secret Key are required');
    });

    it('status reports not_configured, then unreachable once keys are stored', async () => {
      const { access_token } = await signUp(t);
      const before = CredentialsStatusResponseSchema.parse(
        (await call(t, 'GET', '/binance/status', access_token)).json(),
      );
      expect(before.data).toEqual({
        exchange: 'binance',
        configured: false,
        connectivity_status: 'not_configured',
      });
      await store(access_token);
      const after = CredentialsStatusResponseSchema.parse(
        (await call(t, 'GET', '/binance/status', access_token)).json(),
      );
      expect(after.data.connectivity_status).toBe('unreachable');
      expect(after.message).toMatch(/exchange not reachable/);
    });

    it('fails decryption (409, never a wrong secret) when a byte of the stored secret is changed', async () => {
      const { access_token, user } = await signUp(t);
      await store(access_token);
      const lengths = await t.database.db.query<{ c: number; w: number }>(
        'SELECT length(ciphertext) AS c, length(wrapped_data_key) AS w FROM exchange_credentials WHERE user_id = $1',
        [user.id],
      );
      const { c = 0, w = 0 } = lengths[0] ?? {};
      expect(c).toBeGreaterThan(100);
      for (const [column, length] of [
        ['ciphertext', c],
        ['wrapped_data_key', w],
      ] as const) {
        // Every byte is flipped in the envelope unit test; here the IV, body and tag edges of each stored field
        const positions = [0, 11, 12, Math.floor(length / 2), length - 17, length - 16, length - 1];
        for (const i of positions) {
          const flip = `UPDATE exchange_credentials SET ${column} = set_byte(${column}, $2, get_byte(${column}, $2) # 1) WHERE user_id = $1`;
          await t.database.db.query(flip, [user.id, i]);
          const res = await call(t, 'POST', '/test-connection', access_token);
          expect(res.statusCode, `${column}[${i}]`).toBe(409);
          await t.database.db.query(flip, [user.id, i]);
        }
      }
      const status = await call(t, 'GET', '/binance/status', access_token);
      expect(status.statusCode).toBe(200);
      // Restored bytes open again: the adapter seam is reached
      expect((await call(t, 'POST', '/test-connection', access_token)).statusCode).toBe(503);
    });

    it('refuses a stored secret copied onto another user (authenticated data binds user and exchange)', async () => {
      const alice = await signUp(t);
      const bob = await signUp(t);
      await store(alice.access_token);
      await store(bob.access_token, 'bobbobbobbobbobbob', 'bob-secret-bob-secret');
      await t.database.db.query(
        `UPDATE exchange_credentials AS b SET ciphertext = a.ciphertext, wrapped_data_key = a.wrapped_data_key
         FROM exchange_credentials AS a WHERE a.user_id = $1 AND b.user_id = $2`,
        [alice.user.id, bob.user.id],
      );
      const res = await call(t, 'POST', '/test-connection', bob.access_token);
      expect(res.statusCode).toBe(409);
      expect(errorOf(res).detail).toMatch(/failed their integrity check/);
    });

    it('hands the exact decrypted keys to the exchange adapter seam and returns its account data', async () => {
      const seen: ExchangeCredentials[] = [];
      const account: AccountTestResult = {
        accountType: 'USDT_FUTURE',
        totalWalletBalance: '100.00',
        totalUnrealizedProfit: '0',
        totalMarginBalance: '100.00',
        canTrade: true,
        canWithdraw: false,
        canDeposit: true,
        assetsCount: 1,
        positionsCount: 0,
      };
      const probe: ExchangeProbe = {
        async testAccount(_exchange, credentials) {
          seen.push(credentials);
          return account;
        },
      };
      const withAdapter = await buildTestApp(t.database.db, { exchange: probe, keyring: t.keyring });
      try {
        const { access_token } = await signUp(withAdapter);
        await call(withAdapter, 'POST', '/binance', access_token, {
          api_key: API_KEY,
          secret_key: SECRET_KEY,
        });
        const res = await call(withAdapter, 'POST', '/test-connection', access_token);
        expect(res.statusCode).toBe(200);
        expect(AccountTestResponseSchema.parse(res.json()).data).toEqual(account);
        // Once when saved (the permission check), once for the test
        expect(seen).toEqual([
          { apiKey: API_KEY, secretKey: SECRET_KEY, region: 'global', environment: 'testnet' },
          { apiKey: API_KEY, secretKey: SECRET_KEY, region: 'global', environment: 'testnet' },
        ]);
      } finally {
        await withAdapter.app.close();
      }
    });

    it('rotates the master key from the environment: rows re-wrapped, secrets intact, old key alone fails', async () => {
      // Rotation refuses rows it cannot open; earlier tests left rows sealed with other keys
      await t.database.db.query('DELETE FROM exchange_credentials');
      const oldKey = generateMasterKey();
      const newKey = generateMasterKey();
      const before = await buildTestApp(t.database.db, {
        exchange: switchableProbe,
        keyring: makeKeyring([oldKey]),
      });
      const { access_token, user } = await signUp(before);
      await whileUp(() =>
        call(before, 'POST', '/binance', access_token, { api_key: API_KEY, secret_key: SECRET_KEY }),
      );
      await before.app.close();

      await expect(
        rotateMasterKey({
          config: loadConfig({ KESTREL_MASTER_KEY: encodeMasterKey(oldKey) }),
          database: t.database.db,
        }),
      ).rejects.toThrow(/KESTREL_NEW_MASTER_KEY/);
      const result = await rotateMasterKey({
        config: loadConfig({ KESTREL_MASTER_KEY: encodeMasterKey(oldKey) }),
        newMasterKey: encodeMasterKey(newKey),
        database: t.database.db,
      });
      expect(result.rewrapped).toBeGreaterThanOrEqual(1);
      expect(result.toKeyId).toBe(newKey.id);
      expect(JSON.stringify(result)).not.toContain(encodeMasterKey(newKey));
      const row = await t.database.db.query(
        'SELECT master_key_id FROM exchange_credentials WHERE user_id = $1',
        [user.id],
      );
      expect(row[0]?.master_key_id).toBe(newKey.id);

      expect(await canOpen(makeKeyring([newKey]), user.id)).toBe(true);
      expect(await canOpen(makeKeyring([oldKey]), user.id)).toBe(false);
    });

    it('aborts the whole rotation, changing nothing, when one row does not open', async () => {
      await t.database.db.query('DELETE FROM exchange_credentials');
      const [foreign, current] = [generateMasterKey(), generateMasterKey()];
      for (const key of [foreign, current]) {
        const app = await buildTestApp(t.database.db, {
          exchange: switchableProbe,
          keyring: makeKeyring([key]),
        });
        const { access_token } = await signUp(app);
        await whileUp(() =>
          call(app, 'POST', '/binance', access_token, { api_key: API_KEY, secret_key: SECRET_KEY }),
        );
        await app.app.close();
      }
      await expect(
        rotateMasterKey({
          config: loadConfig({ KESTREL_MASTER_KEY: encodeMasterKey(current) }),
          newMasterKey: encodeMasterKey(generateMasterKey()),
          database: t.database.db,
        }),
      ).rejects.toThrow(/master key that is not configured/);
      const ids = await t.database.db.query<{ master_key_id: string }>(
        'SELECT master_key_id FROM exchange_credentials',
      );
      expect(ids.map((r) => r.master_key_id).sort()).toEqual([foreign.id, current.id].sort());
      await t.database.db.query('DELETE FROM exchange_credentials');
    });

    /** Whether the user's stored row opens with `keyring` (an app on it reaches the exchange seam) */
    async function canOpen(keyring: Keyring, userId: string): Promise<boolean> {
      const app = await buildTestApp(t.database.db, { exchange: switchableProbe, keyring });
      try {
        const status = await app.app.credentialsService
          .status({ userId, environment: 'testnet' })
          .catch(() => undefined);
        return status?.data.connectivity_status === 'unreachable';
      } finally {
        await app.app.close();
      }
    }

    it('rotates the embedded key file: new key written 0600, old one replaced, no leftover', async () => {
      await t.database.db.query('DELETE FROM exchange_credentials');
      const dir = await mkdtemp(join(tmpdir(), 'kestrel-rotate-'));
      try {
        const config = loadConfig({
          KESTREL_DATA_DIR: join(dir, 'data'),
          KESTREL_KEYS_DIR: join(dir, 'keys'),
        });
        const oldRing = await loadKeyring(config);
        const app = await buildTestApp(t.database.db, { exchange: switchableProbe, keyring: oldRing });
        const { access_token, user } = await signUp(app);
        await whileUp(() =>
          call(app, 'POST', '/binance', access_token, { api_key: API_KEY, secret_key: SECRET_KEY }),
        );
        await app.app.close();

        const result = await rotateMasterKey({ config, database: t.database.db });
        const newRing = await loadKeyring(config);
        expect(newRing.current.id).toBe(result.toKeyId);
        expect(newRing.current.id).not.toBe(oldRing.current.id);
        expect((await stat(join(dir, 'keys', 'vault.key'))).mode & 0o777).toBe(0o600);
        await expect(readFile(join(dir, 'keys', 'vault.key.next'))).rejects.toThrow(/ENOENT/);

        expect(await canOpen(newRing, user.id)).toBe(true);
        expect(await canOpen(oldRing, user.id)).toBe(false);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  });
});
