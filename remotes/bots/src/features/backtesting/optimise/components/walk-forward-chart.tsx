import type { WalkForwardResult } from '@kestrel/contracts/backtest';
import { formatPercent } from '@kestrel/ui';
import { ChartCanvas, type ChartConfig, ChartContainer, type IChartApi } from '@kestrel/ui/chart';
import { useCallback } from 'react';
import { addReturnLine } from '../../../../lib/return-line';

const config = {
  equity: { label: 'Walk-forward (out of sample)', color: 'var(--primary)' },
  buyAndHold: { label: 'Buy and hold', color: 'var(--muted-foreground)' },
} satisfies ChartConfig;

/** The stitched out-of-sample growth against buy-and-hold over the same bars, both as returns in percent */
export default function WalkForwardChart({ result }: { result: WalkForwardResult }) {
  const build = useCallback(
    (chart: IChartApi, { colors }: { colors: Record<keyof typeof config, string> }) => {
      for (const key of ['buyAndHold', 'equity'] as const) {
        addReturnLine(
          chart,
          { color: colors[key], title: config[key].label, headline: key === 'equity' },
          result.stitched.map((p) => ({ time: p.time, value: p[key] })),
        );
      }
    },
    [result.stitched],
  );
  return (
    <ChartContainer
      config={config}
      title="Out-of-sample equity against buy-and-hold"
      description={`Walk-forward ${formatPercent(result.outOfSampleReturn, { signed: true })}, buy and hold ${formatPercent(result.buyAndHoldReturn, { signed: true })} over the same test bars`}
    >
      <ChartCanvas<typeof config> data-chart="walk-forward" height={280} build={build} />
    </ChartContainer>
  );
}
