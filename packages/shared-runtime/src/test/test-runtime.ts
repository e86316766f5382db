import { type RuntimeConfig, RuntimeConfigSchema } from '@kestrel/contracts';
import { afterEach, expect, onTestFinished } from 'vitest';
import { WebSocket } from 'ws';
import { createKestrelRuntime, type KestrelRuntime } from '../runtime';
import type { WebSocketLike } from '../socket/socket-bus';
import { createMemoryStorage, type KeyValueStorage } from '../storage/storage';
import type { TestWsServer } from './ws-server';

const UNUSED_REMOTE = 'http://127.0.0.1:1/mf-manifest.json';

/**
 * A runtime config for a test: its API and socket servers (by default none: nothing listens on port 1, so a request
 * or a connect attempt ends in error) and remotes it never loads
 */
export function testConfig(
  apiBaseUrl = 'http://127.0.0.1:1',
  socketBaseUrl = 'ws://127.0.0.1:1/ws',
): RuntimeConfig {
  return RuntimeConfigSchema.parse({
    apiBaseUrl,
    socketBaseUrl,
    remotes: {
      dashboard: UNUSED_REMOTE,
      bots: UNUSED_REMOTE,
      exchange_connect: UNUSED_REMOTE,
      account: UNUSED_REMOTE,
    },
  });
}

/** A runtime on a test socket server (`ws`'s client, as a browser's WebSocket), with nothing stored */
export function runtimeOnSocket(socketUrl: string): KestrelRuntime {
  return createKestrelRuntime(testConfig(undefined, socketUrl), {
    storage: createMemoryStorage(),
    createWebSocket: (url) => new WebSocket(url) as unknown as WebSocketLike,
  });
}

/**
 * What the socket tests of a file start, let go after each test: the runtime disposed first, then its server
 * stopped (a server gone first would have the runtime reconnect)
 */
export function socketTestScope(): { runtime?: KestrelRuntime; ws?: TestWsServer } {
  const scope: { runtime?: KestrelRuntime; ws?: TestWsServer } = {};
  afterEach(async () => {
    scope.runtime?.dispose();
    await scope.ws?.stop();
    scope.runtime = undefined;
    scope.ws = undefined;
  });
  return scope;
}

export const TEST_PASSWORD = 'correct horse battery staple';

/**
 * A new user's runtime on the test server, signed up as `<emailPrefix>-<random>@example.test` with
 * `TEST_PASSWORD`; disposed when the test ends
 */
export async function signedUpRuntime(
  apiUrl: string,
  emailPrefix: string,
  storage: KeyValueStorage = createMemoryStorage(),
): Promise<KestrelRuntime> {
  const runtime = createKestrelRuntime(testConfig(apiUrl), { storage });
  onTestFinished(() => runtime.dispose());
  const signedUp = await runtime.session.signUp({
    email: `${emailPrefix}-${crypto.randomUUID().slice(0, 8)}@example.test`,
    password: TEST_PASSWORD,
  });
  expect(signedUp.success).toBe(true);
  return runtime;
}
