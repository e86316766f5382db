import type { AgentEvidence } from '@kestrel/contracts/agents';
import { formatPercent } from '@kestrel/ui';
import { ChartCanvas, type ChartConfig, ChartContainer, type IChartApi } from '@kestrel/ui/chart';
import { useCallback } from 'react';
import { addReturnLine } from '../../../lib/return-line';

const config = {
  oosEquity: { label: 'Agent (out of sample)', color: 'var(--primary)' },
  buyAndHold: { label: 'Buy and hold', color: 'var(--muted-foreground)' },
  randomEntry: { label: 'Random entries', color: 'var(--warning)' },
} satisfies ChartConfig;

type Report = NonNullable<AgentEvidence['report']>;

const lastReturn = (curve: Report['oosEquity']) => {
  const last = curve[curve.length - 1];
  return last ? last.value - 1 : null;
};

/** The stitched out-of-sample equity against buy-and-hold and random entries, as returns in percent */
export default function EvidenceChart({ report }: { report: Report }) {
  const build = useCallback(
    (chart: IChartApi, { colors }: { colors: Record<keyof typeof config, string> }) => {
      for (const key of ['randomEntry', 'buyAndHold', 'oosEquity'] as const) {
        addReturnLine(
          chart,
          { color: colors[key], title: config[key].label, headline: key === 'oosEquity' },
          report[key],
        );
      }
      chart.timeScale().fitContent();
    },
    [report],
  );
  const text = (v: number | null) => (v === null ? '—' : formatPercent(v, { signed: true }));
  return (
    <ChartContainer
      config={config}
      title="Out-of-sample equity against buy-and-hold and random entries"
      description={`Agent ${text(lastReturn(report.oosEquity))}, buy and hold ${text(lastReturn(report.buyAndHold))}, random entries ${text(lastReturn(report.randomEntry))} over the same test bars`}
    >
      <ChartCanvas<typeof config> data-chart="agent-evidence" height={260} build={build} />
    </ChartContainer>
  );
}
