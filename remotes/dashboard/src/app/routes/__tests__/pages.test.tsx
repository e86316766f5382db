import { runtimeInstanceId } from '@kestrel/shared-runtime';
import { render, screen } from '@testing-library/react';
import type { ComponentType } from 'react';
import { describe, expect, it } from 'vitest';
import HistoryPage from '../history';

// Each page still without data as the shell mounts it (the pages with data have their own tests): its title, and
// until it has data, what it will hold
const pages: [string, ComponentType, string][] = [['Trading history', HistoryPage, 'No trades yet']];

describe.each(pages)('the %s page', (title, Page, empty) => {
  it('is a region named by its one h1, marked as rendered by this remote and the shared runtime', () => {
    render(<Page />);
    const region = screen.getByRole('region', { name: title });
    expect(screen.getAllByRole('heading', { level: 1 }).map((h) => h.textContent)).toEqual([title]);
    expect(region.getAttribute('data-remote')).toBe('dashboard');
    expect(region.getAttribute('data-runtime-instance')).toBe(runtimeInstanceId);
  });

  it('says honestly that there is nothing yet, with no placeholder text and no figures', () => {
    render(<Page />);
    expect(screen.getByRole('heading', { level: 2, name: empty })).toBeTruthy();
    const text = screen.getByRole('region', { name: title }).textContent ?? '';
    expect(text).not.toContain('Rendered by');
    // No made-up balance or PnL: no digit anywhere on an empty page
    expect(text).not.toMatch(/\d/);
  });
});
