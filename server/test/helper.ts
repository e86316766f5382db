import { expect } from 'vitest';
import { bearer, type DemoKeys, type TestApp } from '../src/testing';

// The server's own tests import their support from here; it lives in the testing module that client packages
// use too (`@kestrel/server/testing`, src/testing/), so there is one test database, test app and test server
export {
  bearer,
  buildTestApp,
  closedLoopbackPort,
  type DemoKeys,
  type DpopKey,
  type Driver,
  listenLoopback,
  makeDpopKey,
  openTestDatabase,
  PASSWORD,
  postgresUrl,
  SIM_START,
  signUp,
  startTestServer,
  type TestApp,
  TestClock,
  type TestDatabase,
  type TestServer,
  uniqueEmail,
} from '../src/testing';
// Suite hooks over them: the app or the whole test server, started before a suite and closed after it
export { type SuiteApp, type TestAppOptions, useTestApp, useTestServer } from './suite-fixtures';

/** Stores `keys` as the user's Binance keys on `app`, as connecting Binance does (201) */
export async function storeKeys(app: Pick<TestApp, 'request'>, token: string, keys: DemoKeys): Promise<void> {
  const stored = await app.request({
    method: 'POST',
    url: '/api/v1/credentials/binance',
    headers: bearer(token),
    payload: { api_key: keys.apiKey, secret_key: keys.secretKey },
  });
  expect(stored.statusCode, stored.body).toBe(201);
}
