import type { BarColumns, BarSeries } from './bars';

/**
 * Appends bar `i` of `source` to `target` through `append` (so with its checks), at `openTime` when given: the one
 * way tests copy a bar column by column, to drop bars, move them to other open times or grow a series' capacity
 */
export function appendBarOf(
  target: BarSeries,
  source: BarColumns,
  i: number,
  openTime = source.openTime[i] as number,
): void {
  target.append(
    openTime,
    source.open[i] as number,
    source.high[i] as number,
    source.low[i] as number,
    source.close[i] as number,
    source.volume[i] as number,
  );
}
