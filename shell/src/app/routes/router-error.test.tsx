import { createMemoryRouter, RouterProvider } from '@kestrel/shared-runtime/router';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RouterErrorPage } from './router-error';

function BrokenPage(): never {
  throw new Error('page bug');
}

describe('router error page (spec §2)', () => {
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  it('reads Unexpected Application Error! when a route throws', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const router = createMemoryRouter([
      {
        path: '/',
        errorElement: <RouterErrorPage />,
        Component: BrokenPage,
      },
    ]);
    render(<RouterProvider router={router} />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Unexpected Application Error!');
    expect(screen.getByRole('button', { name: 'Reload Page' })).toBeTruthy();
  });
});
