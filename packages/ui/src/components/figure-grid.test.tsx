import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FigureGrid } from './figure-grid';

describe('FigureGrid', () => {
  it('is a named list of terms with their values, tones and hints', () => {
    render(
      <FigureGrid
        label="All bots"
        figures={[
          { key: 'total', label: 'Bots', value: '2', hint: 'kept, stopped ones included' },
          { key: 'today', label: 'Today', value: '-1.50', valueClassName: 'ui:text-destructive' },
        ]}
      />,
    );
    const list = screen.getByLabelText('All bots');
    expect(list.tagName).toBe('DL');
    expect(list.querySelector('[data-figure="total"] dt')?.textContent).toBe('Bots');
    // The value is the first dd (pages and e2e read it so), the hint after it
    expect(list.querySelector('[data-figure="total"] dd')?.textContent).toBe('2');
    expect(list.querySelectorAll('[data-figure="total"] dd')[1]?.textContent).toBe(
      'kept, stopped ones included',
    );
    expect(list.querySelector('[data-figure="today"] dd')?.className).toContain('ui:text-destructive');
  });
});
