import type { EnvironmentStateResponse, EnvironmentTarget } from '@kestrel/contracts';
import { createMemoryStorage, createTradingEnvironment } from '@kestrel/shared-runtime';
import { KestrelRuntimeProvider } from '@kestrel/shared-runtime/react';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderOffline } from '../../test/offline-runtime';
import { EnvironmentSwitch } from './environment-switch';

const testnet: EnvironmentTarget = {
  environment: 'testnet',
  configured: true,
  kind: 'simulator',
  label: 'Simulator',
  realMoney: false,
  reason: null,
};
const REASON =
  'Mainnet is not configured on this server: real-money trading is off until its operator starts Kestrel with KESTREL_MAINNET=1';

/** The top bar's switch over the environment state the server answered with (its words, as GET /environment) */
async function showWith(mainnet: EnvironmentTarget) {
  // An offline runtime (no server listens) with the environment state fed the server's answer
  const { runtime } = renderOffline(null);
  cleanup();
  const answer: EnvironmentStateResponse = {
    currentEnvironment: 'testnet',
    isTestnetMode: true,
    environmentHistory: [],
    current: testnet,
    targets: [testnet, mainnet],
  };
  const environment = createTradingEnvironment({
    storage: createMemoryStorage(),
    server: {
      load: async () => ({ success: true, data: answer }),
      switchTo: async () => ({ success: true, data: answer }),
    },
  });
  render(
    <KestrelRuntimeProvider runtime={{ ...runtime, environment }}>
      <EnvironmentSwitch />
    </KestrelRuntimeProvider>,
  );
  await act(() => environment.refresh());
  return screen.getByRole('button', { name: 'Switch to mainnet' });
}

afterEach(cleanup);

describe('the top bar’s environment switch', () => {
  it('is disabled with the server’s reason where the server cannot reach mainnet', async () => {
    const button = await showWith({
      environment: 'mainnet',
      configured: false,
      kind: null,
      label: 'LIVE mainnet',
      realMoney: true,
      reason: REASON,
    });
    expect(button).toHaveProperty('disabled', true);
    expect(document.getElementById(button.getAttribute('aria-describedby') ?? '')?.textContent).toBe(REASON);
    expect(button.parentElement?.getAttribute('title')).toBe(REASON);
  });

  it('is offered where the server reaches mainnet', async () => {
    const button = await showWith({
      environment: 'mainnet',
      configured: true,
      kind: 'binance-mainnet',
      label: 'LIVE mainnet',
      realMoney: true,
      reason: null,
    });
    expect(button).toHaveProperty('disabled', false);
    expect(button.getAttribute('aria-describedby')).toBeNull();
  });
});
