import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { type ChartConfig, ChartContainer, percentPriceFormat, usdtPriceFormat, useChart } from './chart';

const config = {
  equity: { label: 'Equity', color: 'var(--primary)' },
  drawdown: { label: 'Drawdown', color: 'var(--destructive)' },
} satisfies ChartConfig;

function Legend({ onColors }: { onColors?: (colors: unknown) => void }) {
  const { config: read, colors } = useChart<typeof config>();
  onColors?.(colors);
  return (
    <ul>
      {Object.entries(read).map(([key, { label }]) => (
        <li key={key}>{`${label}: ${colors?.[key as keyof typeof config] ? 'resolved' : 'pending'}`}</li>
      ))}
    </ul>
  );
}

describe('ChartContainer', () => {
  it('is a figure named by its caption and described in words', () => {
    render(
      <ChartContainer
        config={config}
        title="Equity and drawdown"
        description="120 points, ending at 10,250.00 USDT"
      >
        <Legend />
      </ChartContainer>,
    );
    const figure = screen.getByRole('figure', { name: 'Equity and drawdown' });
    const described = document.getElementById(figure.getAttribute('aria-describedby') ?? '');
    expect(described?.textContent).toBe('120 points, ending at 10,250.00 USDT');
  });

  it("exposes each series' colour as a CSS variable and, resolved, to the chart inside", () => {
    render(
      <ChartContainer config={config} title="Equity" description="Equity">
        <Legend />
      </ChartContainer>,
    );
    const figure = screen.getByRole('figure', { name: 'Equity' });
    expect(figure.style.getPropertyValue('--color-equity')).toBe('var(--primary)');
    expect(figure.style.getPropertyValue('--color-drawdown')).toBe('var(--destructive)');
    expect(screen.getByText('Equity: resolved')).toBeTruthy();
    expect(screen.getByText('Drawdown: resolved')).toBeTruthy();
  });

  it('reads the colours again when the theme switches', async () => {
    const seen = new Set<unknown>();
    render(
      <ChartContainer config={{ ...config }} title="Equity" description="Equity">
        <Legend onColors={(colors) => seen.add(colors)} />
      </ChartContainer>,
    );
    const before = seen.size;
    await act(async () => {
      document.documentElement.classList.add('dark');
      // MutationObserver callbacks run as a microtask
      await Promise.resolve();
    });
    document.documentElement.classList.remove('dark');
    expect(seen.size).toBeGreaterThan(before);
  });

  it('refuses useChart outside a container, naming what is missing', () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => render(<Legend />)).toThrow('useChart must be used inside a <ChartContainer>');
    quiet.mockRestore();
  });
});

describe('price scales', () => {
  it('read as the figures beside the chart: USDT to the cent, returns in percent', () => {
    expect(usdtPriceFormat.formatter(1234.5)).toBe('1,234.50');
    expect(usdtPriceFormat.formatter(-0.001)).toBe('0.00');
    expect(percentPriceFormat.formatter(12.5)).toBe('12.50%');
  });
});
