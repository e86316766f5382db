// @vitest-environment node
import { STEP_UP_WINDOW_MS } from '@kestrel/contracts/account';
import { clockReading, startTestServer, type TestServer } from '@kestrel/server/testing';
import { firstValueFrom } from 'rxjs';
import { filter } from 'rxjs/operators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedUpRuntime, TEST_PASSWORD } from './test-runtime';

// The step-up prompt against the real server: the server refuses to store keys without a recent password, the
// runtime's API client asks its prompt, and the same call goes through once the password is confirmed

let server: TestServer;
let apiUrl: string;
/** How far the server's clock runs ahead of the wall clock (the runtime judges token expiry by the real time) */
let ahead = 0;

beforeAll(async () => {
  server = await startTestServer({ deps: { clock: clockReading(() => new Date(Date.now() + ahead)) } });
  apiUrl = await server.listen();
}, 60_000);
afterAll(() => server?.close());

const signedInRuntime = () => signedUpRuntime(apiUrl, 'stepup');

describe('step-up through the runtime', () => {
  it('connects right after sign-in without a prompt, the password having just been given', async () => {
    const r = await signedInRuntime();
    const detach = r.stepUp.attach();
    expect(await r.exchanges.connect('binance', server.demoKeys())).toMatchObject({ success: true });
    expect(r.stepUp.pending).toBe(false);
    detach();
  });

  it('after 5 minutes asks for the password: a wrong one is refused, the right one sends the keys', async () => {
    const r = await signedInRuntime();
    const detach = r.stepUp.attach();
    ahead += STEP_UP_WINDOW_MS;
    const connecting = r.exchanges.connect('binance', server.demoKeys());
    await firstValueFrom(r.stepUp.pending$.pipe(filter(Boolean)));

    expect(await r.stepUp.submit('not my password')).toEqual({ ok: false, error: 'Password is not correct' });
    expect(r.stepUp.pending).toBe(true);
    expect(await r.stepUp.submit(TEST_PASSWORD)).toEqual({ ok: true });
    expect(await connecting).toMatchObject({ success: true });
    expect(r.stepUp.pending).toBe(false);
    detach();
  });

  it('cancelled (or with no prompt on the page) the call fails with the server’s reason', async () => {
    const r = await signedInRuntime();
    ahead += STEP_UP_WINDOW_MS;
    const save = () =>
      r.api.post('/api/v1/credentials/binance', { api_key: 'k'.repeat(64), secret_key: 's'.repeat(64) });
    // No host attached: no prompt can be shown, so the refusal comes back at once
    expect(await save()).toMatchObject({ success: false, status: 403, code: 'STEP_UP_REQUIRED' });

    const detach = r.stepUp.attach();
    const saving = save();
    await firstValueFrom(r.stepUp.pending$.pipe(filter(Boolean)));
    r.stepUp.cancel();
    const refused = await saving;
    expect(refused).toMatchObject({ success: false, status: 403, code: 'STEP_UP_REQUIRED' });
    expect(refused.success === false && refused.error).toContain('Enter your password again');
    detach();
  });
});
