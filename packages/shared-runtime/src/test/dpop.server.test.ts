// @vitest-environment node
import { startTestServer, systemClock, type TestServer } from '@kestrel/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDpopSigner, type DpopSigner, memoryKeyStore } from '../auth/dpop';
import { createSession, type RefreshLocks } from '../auth/session';
import { MESSAGES } from '../spec';
import { createMemoryStorage, type KeyValueStorage, STORAGE_KEYS } from '../storage/storage';

// The refresh token's key binding and the cross-tab refresh against the real server, with node's WebCrypto making
// the non-extractable key pair the browser makes (the browser keeps it in IndexedDB; here it stays in memory)

const PASSWORD = 'correct horse battery staple';
let server: TestServer;
let apiUrl: string;

beforeAll(async () => {
  // The server on the wall clock: proofs carry the real time in iat
  server = await startTestServer({ deps: { clock: systemClock } });
  apiUrl = await server.listen();
}, 60_000);
afterAll(() => server?.close());

/** One browser: its local storage and its key (a second tab of it shares both) */
function browser() {
  return {
    storage: createMemoryStorage(),
    dpop: createDpopSigner({ store: memoryKeyStore(), subtle: globalThis.crypto.subtle }),
  };
}

function tab(b: { storage: KeyValueStorage; dpop: DpopSigner }, locks?: RefreshLocks) {
  return createSession({ baseUrl: () => apiUrl, ...b, ...(locks ? { locks } : {}) });
}

/** Web Locks' exclusive mode, for one origin: callbacks run one after another */
function sharedLocks(): RefreshLocks {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    request(_name, callback) {
      const run = tail.then(callback, callback);
      tail = run.catch(() => undefined);
      return run;
    },
  };
}

async function signedUp(b: ReturnType<typeof browser>) {
  const result = await tab(b).signUp({
    email: `dpop-${crypto.randomUUID().slice(0, 8)}@example.test`,
    password: PASSWORD,
  });
  expect(result.success).toBe(true);
}

describe('the refresh token bound to the browser key', () => {
  it('refreshes in the browser that signed in', async () => {
    const b = browser();
    await signedUp(b);
    const before = b.storage.getItem(STORAGE_KEYS.refreshToken);
    expect(await tab(b).refreshToken()).toMatchObject({ success: true });
    expect(b.storage.getItem(STORAGE_KEYS.refreshToken)).not.toBe(before);
  });

  it('refreshes nothing copied into another browser, which signs out; the real one goes on', async () => {
    const victim = browser();
    await signedUp(victim);
    const thief = browser();
    for (const key of [STORAGE_KEYS.accessToken, STORAGE_KEYS.refreshToken, STORAGE_KEYS.user]) {
      thief.storage.setItem(key, victim.storage.getItem(key) ?? '');
    }
    const stolen = tab(thief);
    expect(await stolen.refreshToken()).toEqual({ success: false, error: MESSAGES.refreshTokenInvalid });
    expect(thief.storage.getItem(STORAGE_KEYS.refreshToken)).toBeNull();
    expect(await tab(victim).refreshToken()).toMatchObject({ success: true });
  });

  it('cannot refresh once the key is gone (signed out elsewhere, storage cleared), and says so', async () => {
    const b = browser();
    await signedUp(b);
    await b.dpop.forget();
    expect(await tab(b).refreshToken()).toEqual({ success: false, error: MESSAGES.refreshTokenInvalid });
  });
});

describe('two tabs refreshing at once', () => {
  it('with the cross-tab lock: one server refresh, both tabs signed in, the session alive', async () => {
    const b = browser();
    await signedUp(b);
    const locks = sharedLocks();
    const [one, two] = [tab(b, locks), tab(b, locks)];
    const before = b.storage.getItem(STORAGE_KEYS.refreshToken);
    const [r1, r2] = await Promise.all([one.refreshToken(), two.refreshToken()]);
    expect(r1).toMatchObject({ success: true });
    // The second tab found the token replaced while it waited and took the new access token
    expect(r2).toEqual(r1);
    expect(two.state.status).toBe('signed-in');
    const after = b.storage.getItem(STORAGE_KEYS.refreshToken);
    expect(after).not.toBe(before);
    // One rotation only: the stored token is the first one's replacement and still refreshes
    expect(await one.refreshToken()).toMatchObject({ success: true });
  });

  it('without Web Locks: the server’s grace window answers both, and the session stays alive', async () => {
    const b = browser();
    await signedUp(b);
    const [one, two] = [tab(b), tab(b)];
    const [r1, r2] = await Promise.all([one.refreshToken(), two.refreshToken()]);
    expect(r1).toMatchObject({ success: true });
    expect(r2).toMatchObject({ success: true });
    expect(await one.refreshToken()).toMatchObject({ success: true });
    expect(await two.me()).toMatchObject({ success: true });
  });
});
