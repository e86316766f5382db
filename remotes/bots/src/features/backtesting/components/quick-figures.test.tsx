import { toneClassName } from '@kestrel/ui';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { metrics, summary } from '../../../test/fixtures';
import { MEANINGFUL_TRADES } from '../lib/sample-weight';
import { QuickFigures } from './quick-figures';

const show = (tradeCount: number, noTradeReason?: string | null) =>
  render(
    <QuickFigures
      run={summary('r', { metrics: { ...metrics(), totalReturn: 0.0723, tradeCount, noTradeReason } })}
      error={null}
      label="Figures"
    />,
  );

/** The return's value: the first figure of the list the label names */
const returnFigure = () => {
  const value = screen.getByLabelText('Figures').querySelector('[data-figure="return"] dd');
  if (!(value instanceof HTMLElement)) throw new Error('no return figure');
  return value;
};

describe('a headline figure carries its weight', () => {
  it(`marks a return from fewer than ${MEANINGFUL_TRADES} trades as not meaningful and drops its colour`, () => {
    show(1);
    expect(screen.getByText('Not meaningful: 1 trade, fewer than the 30 a figure needs')).toBeTruthy();
    expect(returnFigure().textContent).toBe('+7.23%');
    expect(returnFigure().className).not.toContain(toneClassName('positive'));
  });

  it('says why a run made no trade, in the engine’s words', () => {
    show(0, 'The strategy placed no order in these 168 bars: its entry condition never held.');
    expect(screen.getByText(/placed no order in these 168 bars/)).toBeTruthy();
  });

  it(`shows the figure in its colour, without a note, from ${MEANINGFUL_TRADES} trades on`, () => {
    show(MEANINGFUL_TRADES);
    expect(screen.queryByText(/Not meaningful/)).toBeNull();
    expect(returnFigure().className).toContain(toneClassName('positive'));
  });
});
