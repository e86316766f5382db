import { RuntimeConfigSchema } from '@kestrel/contracts';
import { createKestrelRuntime, runtimeInstanceId } from '@kestrel/shared-runtime';
import { KestrelRuntimeProvider } from '@kestrel/shared-runtime/react';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import HistoryPage from '../history';

const unused = 'http://127.0.0.1:1/mf-manifest.json';
const runtime = () =>
  createKestrelRuntime(
    RuntimeConfigSchema.parse({
      apiBaseUrl: 'http://127.0.0.1:1',
      socketBaseUrl: 'ws://127.0.0.1:1/ws',
      remotes: { dashboard: unused, bots: unused, exchange_connect: unused, account: unused },
    }),
  );

describe('the Trading history page', () => {
  it('without a connected exchange says so, offers the connect modal and shows no figure', () => {
    render(
      <KestrelRuntimeProvider runtime={runtime()}>
        <HistoryPage />
      </KestrelRuntimeProvider>,
    );
    const region = screen.getByRole('region', { name: 'Trading history' });
    expect(region.getAttribute('data-remote')).toBe('dashboard');
    expect(region.getAttribute('data-runtime-instance')).toBe(runtimeInstanceId);
    expect(screen.getByRole('heading', { level: 2, name: 'No exchange connected' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Connect exchange' })).toBeTruthy();
    expect(region.textContent).not.toMatch(/\d/);
  });
});
