// Test support for the server and its clients (`@kestrel/server/testing`): never imported by the production entry.
// It needs the server's dev dependencies (the exchange simulator), so only test code may import it.

// The app's decorations (app.socketBus…), declared by its plugins: see the main entry
export type {} from '../index';
export { type Clock, clockReading, systemClock } from '../lib/clock';
export { type DpopKey, makeDpopKey } from './dpop';
export {
  bearer,
  buildTestApp,
  closedLoopbackPort,
  listenLoopback,
  PASSWORD,
  signUp,
  type TestApp,
  TestClock,
  uniqueEmail,
} from './test-app';
export {
  type Driver,
  openTestDatabase,
  pgliteSnapshot,
  postgresUrl,
  type TestDatabase,
  type TestDatabaseSpec,
} from './test-database';
export {
  type DemoKeys,
  SIM_START,
  startTestServer,
  type TestServer,
  type TestServerOptions,
} from './test-server';
