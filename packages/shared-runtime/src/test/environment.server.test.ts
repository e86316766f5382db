// @vitest-environment node
import { STEP_UP_WINDOW_MS } from '@kestrel/contracts/account';
import { clockReading, startTestServer, type TestServer } from '@kestrel/server/testing';
import { firstValueFrom } from 'rxjs';
import { filter } from 'rxjs/operators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKestrelRuntime } from '../runtime';
import type { ToastMessage } from '../state/toast';
import { createMemoryStorage, type KeyValueStorage, STORAGE_KEYS } from '../storage/storage';
import { signedUpRuntime, TEST_PASSWORD } from './test-runtime';

// Issue 23: the server holds each user's trading environment; the runtime's state is its cache. Against the real
// server with a mainnet stand-in simulator

let server: TestServer;
let apiUrl: string;
let ahead = 0;

beforeAll(async () => {
  server = await startTestServer({
    mainnet: true,
    deps: { clock: clockReading(() => new Date(Date.now() + ahead)) },
  });
  apiUrl = await server.listen();
}, 60_000);
afterAll(() => server?.close());

const signedInRuntime = (storage?: KeyValueStorage) => signedUpRuntime(apiUrl, 'env', storage);

describe('the trading environment through the runtime', () => {
  it('replaces a stale browser copy with the server’s answer', async () => {
    const storage = createMemoryStorage();
    // A copy left by another session says mainnet; this user has never switched
    storage.setItem(
      STORAGE_KEYS.tradingEnvironment,
      JSON.stringify({ currentEnvironment: 'mainnet', environmentHistory: [] }),
    );
    const r = await signedInRuntime(storage);
    expect(r.environment.state.target).toBeUndefined();
    await r.environment.refresh();
    expect(r.environment.state).toMatchObject({
      currentEnvironment: 'testnet',
      isTestnetMode: true,
      target: { label: 'Simulator', kind: 'simulator' },
    });
  });

  it('switches on the server, asking for the password again after 5 minutes, and toasts the spec’s words', async () => {
    const r = await signedInRuntime();
    const detach = r.stepUp.attach();
    const toasts: ToastMessage[] = [];
    r.toasts$.subscribe((t) => toasts.push(t));
    ahead += STEP_UP_WINDOW_MS;
    const switching = r.environment.switchTo('mainnet');
    await firstValueFrom(r.stepUp.pending$.pipe(filter(Boolean)));
    expect(r.environment.state.currentEnvironment).toBe('testnet');
    expect(await r.stepUp.submit(TEST_PASSWORD)).toEqual({ ok: true });
    expect(await switching).toBe(true);
    expect(r.environment.state).toMatchObject({
      currentEnvironment: 'mainnet',
      isTestnetMode: false,
      target: { label: 'LIVE mainnet', realMoney: true },
    });
    expect(r.environment.state.environmentHistory).toHaveLength(1);
    expect(toasts.at(-1)).toMatchObject({ title: 'Switched to Mainnet', variant: 'destructive' });
    detach();

    // Another browser of the same user reads the same truth
    const other = createKestrelRuntime(r.config, { storage: createMemoryStorage() });
    const signedIn = await other.session.signIn({
      email: r.session.state.user?.email ?? '',
      password: TEST_PASSWORD,
    });
    expect(signedIn.success).toBe(true);
    await other.environment.refresh();
    expect(other.environment.state.currentEnvironment).toBe('mainnet');
    other.dispose();
  });
});
