import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { newUser } from '../support/auth';
import { E2E_API_PORT, E2E_DATA_DIR, E2E_SIM_PORT } from '../support/ports';
import { adminHeaders } from '../support/sim';

const API = `http://127.0.0.1:${E2E_API_PORT}`;
const SIM_ADMIN = `http://127.0.0.1:${E2E_SIM_PORT}/_sim`;

/**
 * `./kestrel start` supervises the API server: killed (-9, as a crash or the out-of-memory killer would), it is
 * started again while the simulator, whose accounts live only in its memory, and the pages keep running. Runs after
 * every other spec (its own project), since the server is gone for a few seconds
 */
test('the launcher starts a killed API server again; the simulator and the pages keep running', async ({
  request,
  page,
}) => {
  test.setTimeout(120_000);
  const user = newUser();
  const signup = await request.post(`${API}/api/v1/auth/signup`, { data: user });
  expect(signup.status(), await signup.text()).toBe(201);
  // An account only the simulator's memory holds
  const made = await request.post(`${SIM_ADMIN}/accounts`, {
    headers: adminHeaders(),
    data: { balances: { USDT: '1234' } },
  });
  expect(made.status(), await made.text()).toBe(201);
  const account = await made.json();

  const pidFile = join(E2E_DATA_DIR, 'server.pid');
  const killed = Number(readFileSync(pidFile, 'utf8'));
  process.kill(killed, 'SIGKILL');
  await expect
    .poll(async () => (await request.get(`${API}/api/v1/health`).catch(() => undefined))?.status(), {
      timeout: 90_000,
    })
    .toBe(200);
  expect(Number(readFileSync(pidFile, 'utf8'))).not.toBe(killed);

  // What the server keeps on disk is there: the trader signs in again
  const signin = await request.post(`${API}/api/v1/auth/signin`, {
    data: { email: user.email, password: user.password },
  });
  expect(signin.status(), await signin.text()).toBe(200);
  // The simulator never stopped: the account it holds in memory is still there
  const kept = await request.get(`${SIM_ADMIN}/accounts/${account.accountId}`, { headers: adminHeaders() });
  expect(kept.status()).toBe(200);
  expect((await kept.json()).balances).toMatchObject({ USDT: '1234' });
  // And the pages are served as before
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
});
