import { afterAll, beforeAll } from 'vitest';
import type { AppDeps } from '../src/app';
import {
  buildTestApp,
  openTestDatabase,
  startTestServer,
  type TestApp,
  type TestDatabase,
  type TestDatabaseSpec,
  type TestServer,
  type TestServerOptions,
} from '../src/testing';

export interface TestAppOptions {
  /** Where the app stores its rows: in-memory PGlite unless said otherwise */
  database?: TestDatabaseSpec;
  /** Parts to replace (an exchange probe, a keyring…) */
  deps?: Partial<AppDeps>;
  /** Configuration variables over the test defaults */
  env?: NodeJS.ProcessEnv;
}

/** The suite's app and the database under it (for a second app on the same rows) */
export interface SuiteApp extends TestApp {
  database: TestDatabase;
}

/**
 * The real app on a fresh test database for the enclosing suite (a `describe`, or the whole file): opened before
 * its first test, closed after its last (the app, then the database). The handle is filled in by the suite's
 * `beforeAll`, so tests and later hooks read it; code that runs while the suite is declared must not.
 */
export function useTestApp(options: TestAppOptions = {}): SuiteApp {
  const handle = {} as SuiteApp;
  let database: TestDatabase | undefined;
  let app: TestApp | undefined;
  beforeAll(async () => {
    database = await openTestDatabase(options.database);
    app = await buildTestApp(database.db, options.deps, options.env);
    Object.assign(handle, app, { database });
  });
  afterAll(async () => {
    await app?.app.close();
    await database?.cleanup();
  });
  return handle;
}

/**
 * `startTestServer(options)` for the enclosing suite: the simulator and the app start before its first test and
 * close after its last (`timeoutMs`: the start's own timeout). Like `useTestApp`, the handle is filled in by the
 * suite's `beforeAll`.
 */
export function useTestServer(options: TestServerOptions = {}, timeoutMs?: number): TestServer {
  const handle = {} as TestServer;
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer(options);
    Object.assign(handle, server);
  }, timeoutMs);
  afterAll(() => server?.close());
  return handle;
}
