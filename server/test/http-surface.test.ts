import {
  AuthResponseSchema,
  DatabaseHealthSchema,
  ErrorResponseSchema,
  HealthSchema,
} from '@kestrel/contracts';
import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { BODY_LIMIT_BYTES } from '../src/app';
import { REFRESH_GRACE_MS } from '../src/core/auth/auth-service';
import { encodeMasterKey } from '../src/lib/crypto/master-key';
import { currentVersion, migrate, readMigrations } from '../src/lib/database/migrate';
import {
  bearer,
  buildTestApp,
  type Driver,
  makeDpopKey,
  openTestDatabase,
  PASSWORD,
  postgresUrl,
  uniqueEmail,
  useTestServer,
} from './helper';

const pgUp = (await postgresUrl()) !== undefined;

// A live exchange (the simulator): random requests reach the adapter's real paths, and a 503 can only mean a bug
const t = useTestServer({ simulator: { historyDays: 2 } });

const errorOf = (res: { json(): unknown }) => ErrorResponseSchema.parse(res.json());

describe('error answers', () => {
  const signup = (options: Partial<InjectOptions>) =>
    t.request({ method: 'POST', url: '/api/v1/auth/signup', ...options });

  it('malformed JSON: 400, a clear message, and the body is not echoed', async () => {
    const res = await signup({
      headers: { 'content-type': 'application/json' },
      payload: '{"email":"a@b.co","password":"hunter2-secret-value"',
    });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).detail).toBe('Malformed JSON body: the request body is not valid JSON');
    expect(res.body).not.toContain('hunter2');
  });

  it(`oversized body: 413 above ${BODY_LIMIT_BYTES} bytes`, async () => {
    const res = await signup({ payload: { email: 'a@b.co', password: 'x'.repeat(BODY_LIMIT_BYTES) } });
    expect(res.statusCode).toBe(413);
    expect(errorOf(res).detail).toBe('Request body is too large');
  });

  it('wrong types and unknown fields: 400 naming the field', async () => {
    const wrongType = await signup({ payload: { email: 'a@b.co', password: 12345678 } });
    expect(wrongType.statusCode).toBe(400);
    expect(errorOf(wrongType).issues?.[0]?.path).toBe('body.password');
    const unknown = await signup({ payload: { email: uniqueEmail(), password: PASSWORD, admin: true } });
    expect(unknown.statusCode).toBe(400);
    expect(errorOf(unknown).detail).toMatch(/admin/);
    const array = await signup({ payload: [1, 2, 3] });
    expect(array.statusCode).toBe(400);
    const missing = await signup({});
    expect(missing.statusCode).toBe(400);
  });

  it('a body that is not JSON: 415', async () => {
    const res = await signup({ headers: { 'content-type': 'text/plain' }, payload: 'email=a' });
    expect(res.statusCode).toBe(415);
    expect(errorOf(res).detail).toMatch(/application\/json/);
  });

  it('unknown route: 404 in the same shape', async () => {
    const res = await t.request({ method: 'GET', url: '/api/v1/nowhere?x=1' });
    expect(res.statusCode).toBe(404);
    expect(errorOf(res).detail).toBe('No route GET /api/v1/nowhere');
  });
});

describe('headers', () => {
  it('sets security headers on API answers', async () => {
    const res = await t.request({ method: 'GET', url: '/api/v1/health' });
    expect(HealthSchema.parse(res.json()).status).toBe('ok');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['strict-transport-security']).toMatch(/max-age=/);
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('allows CORS only for the configured shell origins', async () => {
    const allowed = await t.request({ url: '/api/v1/health', headers: { origin: 'http://shell.test' } });
    expect(allowed.headers['access-control-allow-origin']).toBe('http://shell.test');
    const denied = await t.request({ url: '/api/v1/health', headers: { origin: 'http://evil.test' } });
    expect(denied.headers['access-control-allow-origin']).toBeUndefined();

    const preflight = await t.request({
      method: 'OPTIONS',
      url: '/api/v1/auth/signin',
      headers: {
        origin: 'http://shell.test',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,authorization',
      },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('http://shell.test');
    expect(String(preflight.headers['access-control-allow-headers'])).toMatch(/authorization/);
    const evilPreflight = await t.request({
      method: 'OPTIONS',
      url: '/api/v1/auth/signin',
      headers: { origin: 'http://evil.test', 'access-control-request-method': 'POST' },
    });
    expect(evilPreflight.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('OpenAPI', () => {
  const SPEC_CALLS = [
    ['post', '/api/v1/auth/signup'],
    ['post', '/api/v1/auth/signin'],
    ['post', '/api/v1/auth/refresh'],
    ['post', '/api/v1/auth/logout'],
    ['get', '/api/v1/auth/me'],
    ['get', '/api/v1/auth/sessions'],
    ['delete', '/api/v1/auth/sessions/{id}'],
    ['get', '/api/v1/credentials/binance'],
    ['post', '/api/v1/credentials/binance'],
    ['delete', '/api/v1/credentials/binance'],
    ['post', '/api/v1/credentials/test-connection'],
    ['get', '/api/v1/credentials/binance/status'],
    ['post', '/api/v1/credentials/validate/binance'],
    ['get', '/api/v1/database/health'],
    ['get', '/api/v1/health'],
  ] as const;

  it('documents every call of the spec with its body and answers', async () => {
    const res = await t.request({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as { paths: Record<string, Record<string, Record<string, unknown>>> };
    for (const [method, path] of SPEC_CALLS) {
      expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
    }
    const signin = doc.paths['/api/v1/auth/signin']?.post as {
      requestBody: {
        content: { 'application/json': { schema: { properties: object; required: string[] } } };
      };
      responses: Record<string, unknown>;
    };
    const schema = signin.requestBody.content['application/json'].schema;
    expect(Object.keys(schema.properties)).toEqual(['email', 'password']);
    expect(Object.keys(signin.responses)).toEqual(expect.arrayContaining(['200', '401', '429']));
  });

  it('serves the docs page from the installed package, no CDN', async () => {
    const page = await t.request({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).not.toMatch(/https?:\/\/(?!127\.0\.0\.1|localhost)[a-z]/i);
    // The page may load scripts from itself only, and nothing is sent to outside hosts
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toMatch(/script-src 'self'/);
    expect(csp).not.toMatch(/validator\.swagger\.io|upgrade-insecure-requests/);
    const script = /src="\.?\/?([^"]+\.js)"/.exec(page.body)?.[1];
    expect(script).toBeDefined();
    const asset = await t.request({
      method: 'GET',
      url: `/api/docs/${script?.replace(/^.*?static\//, 'static/')}`,
    });
    expect(asset.statusCode).toBe(200);
  });
});

// Random requests to every route (10,000, seeded): test/abuse/fuzz.test.ts

describe('no secret in any answer or log line', () => {
  it('holds across a full session: sign-up, sign-in, failures, refresh, credentials, tests, errors', async () => {
    const scan = await buildTestApp(t.database.db, {}, { KESTREL_LOG_LEVEL: 'trace' });
    try {
      const email = uniqueEmail('scan');
      const password = 'scan-password-Q7x9ZpL2';
      const wrongPassword = 'wrong-password-M4v8TbN6';
      const apiKey = 'APIKEYscan0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRS';
      const secretKey = 'SECRETscan0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQR';
      const otherSecret = 'SECRETvalidate-zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz';
      const brokenSecret = 'SECRETinbrokenjson-yyyyyyyyyyyyyyyyyyyyy';
      const tooLongSecret = `SECRETtoolong-${'w'.repeat(600)}`;

      const signup = AuthResponseSchema.parse(
        (
          await scan.request({ method: 'POST', url: '/api/v1/auth/signup', payload: { email, password } })
        ).json(),
      );
      await scan.request({
        method: 'POST',
        url: '/api/v1/auth/signin',
        payload: { email, password: wrongPassword },
      });
      // A browser key, so the refresh token is bound and its proofs go through the logs too
      const key = await makeDpopKey(() => scan.clock.now().getTime());
      const proof = (path: string) => key.proof('POST', `http://localhost${path}`);
      const signin = AuthResponseSchema.parse(
        (
          await scan.request({
            method: 'POST',
            url: '/api/v1/auth/signin',
            payload: { email, password },
            headers: { dpop: await proof('/api/v1/auth/signin') },
          })
        ).json(),
      );
      const refreshed = AuthResponseSchema.parse(
        (
          await scan.request({
            method: 'POST',
            url: '/api/v1/auth/refresh',
            payload: { refresh_token: signin.refresh_token },
            headers: { dpop: await proof('/api/v1/auth/refresh') },
          })
        ).json(),
      );
      // Replay past the grace window, so the reuse path logs too
      scan.clock.advance(REFRESH_GRACE_MS + 1);
      await scan.request({
        method: 'POST',
        url: '/api/v1/auth/refresh',
        payload: { refresh_token: signin.refresh_token },
        headers: { dpop: await proof('/api/v1/auth/refresh') },
      });
      const auth = bearer(refreshed.access_token);
      const signupAuth = bearer(signup.access_token);
      await scan.request({
        method: 'POST',
        url: '/api/v1/credentials/binance',
        headers: signupAuth,
        payload: { api_key: apiKey, secret_key: secretKey },
      });
      for (const url of ['/api/v1/credentials/binance', '/api/v1/credentials/binance/status']) {
        await scan.request({ method: 'GET', url, headers: signupAuth });
      }
      await scan.request({ method: 'POST', url: '/api/v1/credentials/test-connection', headers: signupAuth });
      await scan.request({
        method: 'POST',
        url: '/api/v1/credentials/validate/binance',
        headers: signupAuth,
        payload: { api_key: apiKey, secret_key: otherSecret },
      });
      await scan.request({
        method: 'POST',
        url: '/api/v1/credentials/binance',
        headers: { ...signupAuth, 'content-type': 'application/json' },
        payload: `{"api_key":"${apiKey}","secret_key":"${brokenSecret}"`,
      });
      await scan.request({
        method: 'POST',
        url: '/api/v1/credentials/binance',
        headers: signupAuth,
        payload: { api_key: apiKey, secret_key: tooLongSecret },
      });
      await scan.request({ method: 'GET', url: '/api/v1/auth/me', headers: auth });
      await scan.request({ method: 'GET', url: '/api/v1/auth/sessions', headers: signupAuth });
      await scan.request({ method: 'POST', url: '/api/v1/auth/logout', headers: signupAuth });

      const hashRow = await t.database.db.query<{ password_hash: string }>(
        'SELECT password_hash FROM users WHERE id = $1',
        [signup.user.id],
      );
      const neverAnywhere = [
        password,
        wrongPassword,
        apiKey,
        secretKey,
        otherSecret,
        brokenSecret,
        'SECRETtoolong',
        hashRow[0]?.password_hash ?? 'missing-hash',
        encodeMasterKey(scan.keyring.current),
        scan.keyring.current.key.toString('hex'),
      ];
      const tokens = [signup, signin, refreshed].flatMap((a) => [a.access_token, a.refresh_token]);

      const answers = scan.responses.map((r) => `${JSON.stringify(r.headers)}\n${r.body}`);
      expect(answers.length).toBeGreaterThan(10);
      expect(scan.logs.length).toBeGreaterThan(20);
      for (const secret of neverAnywhere) {
        for (const answer of answers) expect(answer).not.toContain(secret);
        for (const line of scan.logs) expect(line).not.toContain(secret);
      }
      // Tokens belong in the answers that issue them, never in a log line
      for (const token of tokens) for (const line of scan.logs) expect(line).not.toContain(token);
    } finally {
      await scan.app.close();
    }
  });
});

describe.each<Driver>(['pglite', 'postgres'])('migrations on %s', (driver) => {
  describe.skipIf(driver === 'postgres' && !pgUp)('', () => {
    it('apply at start, then again as a no-op, also when several instances start together', async () => {
      const own = driver === 'pglite' ? undefined : await openTestDatabase(driver);
      const db = own?.db ?? t.database.db;
      try {
        const expected = (await readMigrations()).length;
        const versions = await Promise.all([migrate(db), migrate(db), migrate(db)]);
        expect(versions).toEqual([expected, expected, expected]);
        expect(await currentVersion(db)).toBe(expected);
        const applied = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations');
        expect(applied[0]?.n).toBe(expected);
      } finally {
        await own?.cleanup();
      }
    });
  });
});

describe('database health', () => {
  it('on PostgreSQL: reachable, migration version and latency', async () => {
    if (!pgUp) return;
    const own = await openTestDatabase('postgres');
    const app = await buildTestApp(own.db);
    try {
      const res = await app.request({ method: 'GET', url: '/api/v1/database/health' });
      expect(res.statusCode).toBe(200);
      expect(DatabaseHealthSchema.parse(res.json()).database).toMatchObject({
        reachable: true,
        driver: 'postgres',
        migration_version: (await readMigrations()).length,
      });
    } finally {
      await app.app.close();
      await own.cleanup();
    }
  });

  // Last: it closes the file's database
  it('on PGlite: 200 while up, 503 in the same shape once the database is gone', async () => {
    const up = await t.request({ method: 'GET', url: '/api/v1/database/health' });
    expect(up.statusCode).toBe(200);
    const health = DatabaseHealthSchema.parse(up.json());
    expect(health.database).toMatchObject({
      reachable: true,
      driver: 'pglite',
      migration_version: (await readMigrations()).length,
    });
    expect(health.database.latency_ms).toBeGreaterThanOrEqual(0);

    await t.database.db.close();
    const down = await t.request({ method: 'GET', url: '/api/v1/database/health' });
    expect(down.statusCode).toBe(503);
    expect(DatabaseHealthSchema.parse(down.json())).toMatchObject({
      status: 'unavailable',
      database: { reachable: false },
    });
  });
});
