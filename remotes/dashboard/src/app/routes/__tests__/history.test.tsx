import { runtimeInstanceId } from '@kestrel/shared-runtime';
import { KestrelRuntimeProvider } from '@kestrel/shared-runtime/react';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { testRuntime } from '../../../test/runtime';
import HistoryPage from '../history';

describe('the Trading history page', () => {
  it('without a connected exchange says so, offers the connect modal and shows no figure', () => {
    render(
      <KestrelRuntimeProvider runtime={testRuntime()}>
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
