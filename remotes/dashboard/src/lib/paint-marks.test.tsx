import type { DashboardOverview } from '@kestrel/contracts';
import { render } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { AccountCards } from '../features/overview/components/account-cards';
import { markPainted, PAINT_MARKS } from './paint-marks';

const overview: DashboardOverview = {
  walletBalance: '10000.00000000',
  marginBalance: '9987.65000000',
  availableMargin: '9411.84000000',
  unrealizedPnl: '-12.35000000',
  initialMargin: '575.81000000',
  maintenanceMargin: '23.03000000',
  marginRatio: '0.0023',
  today: { from: 0, to: 1, realizedPnl: '0', commission: '0', fundingFee: '0', net: '0' },
  openPositions: 1,
  openOrders: 2,
  activeBots: 0,
  asOf: 1,
};

const marks = (name: string) => performance.getEntriesByName(name, 'mark').length;
/** Two frames: the mark's frame callback has run */
const frames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));

describe("the page's paint marks", () => {
  beforeEach(() => performance.clearMarks());

  it('are set by the account cards only when the exchange figures render, once', async () => {
    const { rerender } = render(<AccountCards state="loading" />);
    rerender(<AccountCards state="error" message="down" onRetry={() => {}} />);
    rerender(<AccountCards state="no-exchange" connectAction={null} />);
    await frames();
    expect(marks(PAINT_MARKS.figures)).toBe(0);
    rerender(<AccountCards state="ready" overview={overview} />);
    await frames();
    expect(marks(PAINT_MARKS.figures)).toBe(1);
    rerender(<AccountCards state="ready" overview={{ ...overview, walletBalance: '1.00000000' }} />);
    await frames();
    expect(marks(PAINT_MARKS.figures)).toBe(1);
  });

  it('keep the first moment: a second call does not move a mark', async () => {
    markPainted(PAINT_MARKS.lastCandle);
    await frames();
    const first = performance.getEntriesByName(PAINT_MARKS.lastCandle, 'mark')[0]?.startTime;
    markPainted(PAINT_MARKS.lastCandle);
    await frames();
    expect(performance.getEntriesByName(PAINT_MARKS.lastCandle, 'mark').map((m) => m.startTime)).toEqual([
      first,
    ]);
  });
});
