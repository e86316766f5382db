/**
 * @vitest-environment-options {"settings": {"fetch": {"disableSameOriginPolicy": true}}}
 */
// The environment setting against a real server that reaches testnet (the simulator) and no mainnet
import { startTestServer, type TestServer } from '@kestrel/server/testing';
import type { KestrelRuntime } from '@kestrel/shared-runtime';
import { KestrelRuntimeProvider } from '@kestrel/shared-runtime/react';
import { render, screen, waitFor } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testRuntime } from '../../../test/runtime';
import { EnvironmentSettings } from './environment-settings';

let server: TestServer;
let runtime: KestrelRuntime;

beforeAll(async () => {
  server = await startTestServer({ clock: 'wall' });
  runtime = testRuntime(await server.listen());
  expect(
    await runtime.session.signUp({
      email: 'no-mainnet@example.test',
      password: 'correct horse battery staple',
    }),
  ).toMatchObject({ success: true });
  // As the shell does once a sign-in is confirmed: the server says which environments it reaches
  await runtime.environment.refresh();
}, 60_000);
afterAll(async () => {
  runtime?.dispose();
  await server?.close();
});

describe('the environment setting on a server without mainnet', { timeout: 30_000 }, () => {
  it('offers no switch to mainnet: the button is disabled and the server’s reason is shown beside it', async () => {
    render(
      <KestrelRuntimeProvider runtime={runtime}>
        <EnvironmentSettings />
      </KestrelRuntimeProvider>,
    );
    const button = screen.getByRole('button', { name: 'Switch to mainnet' });
    await waitFor(() => expect(button).toHaveProperty('disabled', true), { timeout: 10_000 });
    const reason = document.getElementById(button.getAttribute('aria-describedby') ?? '');
    expect(reason?.textContent).toMatch(/^Mainnet is not configured on this server: .*KESTREL_MAINNET=1$/);
    expect(screen.getByText(reason?.textContent ?? '')).toBeTruthy();
    expect(runtime.environment.state.currentEnvironment).toBe('testnet');
  });
});
