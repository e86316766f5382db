import type { AgentHealth, PsiBand } from '@kestrel/contracts/agents';
import { PSI_BANDS } from '@kestrel/engine';
import { cn, formatDateTime, formatPercent, ScrollRegion } from '@kestrel/ui';
import { statText } from '../lib/agent-words';
import { featureLabel } from '../lib/features';
import { num, td, th } from './section';

const BAND_RANK: Record<PsiBand, number> = { large: 2, moderate: 1, stable: 0 };
const BAND_CLASS: Record<PsiBand, string> = {
  large: 'bt:text-destructive bt:font-medium',
  moderate: 'bt:text-foreground bt:font-medium',
  stable: 'bt:text-muted-foreground',
};
const bandRank = (band: PsiBand | null) => (band === null ? -1 : BAND_RANK[band]);

/** "2 large, 5 moderate, 18 stable of 25" (the bands with none left out) */
export function shiftCounts(rows: readonly { band: PsiBand | null }[]): string {
  const count = (band: PsiBand) => rows.filter((r) => r.band === band).length;
  const parts = (['large', 'moderate', 'stable'] as const)
    .filter((band) => count(band) > 0)
    .map((band) => `${count(band)} ${band}`);
  return `${parts.length > 0 ? parts.join(', ') : 'none measured'} of ${rows.length}`;
}

/** Feature drift by the usual PSI bands, largest shift first */
function Drift({ health }: { health: AgentHealth }) {
  const rows = [...health.featureDrift].sort(
    (a, b) =>
      bandRank(b.band) - bandRank(a.band) || (b.psi ?? -1) - (a.psi ?? -1) || a.id.localeCompare(b.id),
  );
  return (
    <div className="bt:flex bt:flex-col bt:gap-1">
      <h4 className="bt:text-sm bt:font-semibold">Feature drift: {shiftCounts(rows)}</h4>
      <p className="bt:text-xs bt:text-muted-foreground">
        Shift by the usual PSI bands: below {PSI_BANDS.moderate.toFixed(2)} stable,{' '}
        {PSI_BANDS.moderate.toFixed(2)}–{PSI_BANDS.large.toFixed(2)} moderate, {PSI_BANDS.large.toFixed(2)}{' '}
        and above large. Features over 64 bars have few independent values in the recent window and read high:
        check the z of the mean beside them.
      </p>
      <ScrollRegion label="Feature drift (scrolls sideways)" className="bt:max-h-72 bt:overflow-y-auto">
        <table className="bt:w-full bt:text-sm">
          <caption className="bt:sr-only">Feature drift against training</caption>
          <thead>
            <tr>
              <th className={th}>Feature</th>
              <th className={cn(th, 'bt:text-right')}>PSI</th>
              <th className={cn(th, 'bt:text-right')}>z of mean</th>
              <th className={th}>Shift</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id} data-feature={r.id} className="bt:border-t bt:border-border">
                <td className={td}>{featureLabel(r.id)}</td>
                <td className={num}>{statText(r.psi, 3)}</td>
                <td className={num}>{statText(r.zMean, 2)}</td>
                <td className={cn(td, r.band === null ? 'bt:text-muted-foreground' : BAND_CLASS[r.band])}>
                  {r.band ?? 'no data'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    </div>
  );
}

/** Predicted against observed per probability bucket: two bars each, side by side */
function Calibration({ health }: { health: AgentHealth }) {
  // A bucket without resolved decisions has no observed frequency: drawing its predicted bar alone would mislead
  const buckets = health.calibration.filter((b) => b.count > 0);
  if (buckets.length === 0) {
    return (
      <p className="bt:text-sm bt:text-muted-foreground">No resolved decisions yet to calibrate against.</p>
    );
  }
  return (
    <ul
      aria-label="Calibration: predicted against observed"
      className="bt:flex bt:flex-col bt:gap-1 bt:text-xs"
    >
      {buckets.map((b) => (
        <li key={b.from} className="bt:grid bt:grid-cols-[5.5rem_1fr_7.5rem] bt:items-center bt:gap-2">
          <span className="bt:font-mono bt:tabular-nums">
            {formatPercent(b.from, { digits: 0 })}–{formatPercent(b.to, { digits: 0 })}
          </span>
          <span aria-hidden="true" className="bt:flex bt:flex-col bt:gap-0.5">
            <span
              className="bt:h-1.5 bt:rounded-sm bt:bg-primary"
              style={{ width: `${b.predicted * 100}%` }}
            />
            <span
              className="bt:h-1.5 bt:rounded-sm bt:bg-muted-foreground"
              style={{ width: `${b.observed * 100}%` }}
            />
          </span>
          <span className="bt:text-right bt:font-mono bt:tabular-nums">
            {formatPercent(b.predicted, { digits: 0 })} / {formatPercent(b.observed, { digits: 0 })} (n{' '}
            {b.count})
          </span>
        </li>
      ))}
      <li className="bt:text-muted-foreground">
        Each bucket: predicted (top bar) / observed (bottom bar), and how many.
      </li>
    </ul>
  );
}

function DiHistogram({ health }: { health: AgentHealth }) {
  const max = Math.max(0, ...health.diHistogram.map((b) => b.count));
  if (max === 0) return <p className="bt:text-sm bt:text-muted-foreground">No decisions yet.</p>;
  return (
    <div className="bt:flex bt:flex-col bt:gap-1">
      <div
        role="img"
        aria-label={`Dissimilarity index of recent decisions: ${health.diHistogram.map((b) => `${statText(b.from, 2)}–${statText(b.to, 2)}: ${b.count}`).join(', ')}`}
        className="bt:flex bt:h-24 bt:items-end bt:gap-0.5"
      >
        {health.diHistogram.map((b) => (
          <span
            key={b.from}
            className="bt:flex-1 bt:rounded-t-sm bt:bg-primary/70"
            style={{ height: `${(b.count / max) * 100}%` }}
          />
        ))}
      </div>
      <div className="bt:flex bt:justify-between bt:font-mono bt:text-xs bt:text-muted-foreground">
        <span>{statText(health.diHistogram[0]?.from, 2)}</span>
        <span>{statText(health.diHistogram[health.diHistogram.length - 1]?.to, 2)}</span>
      </div>
    </div>
  );
}

/** The model against the market it sees now: drift, calibration, hit rate, dissimilarity */
export function HealthView({ health }: { health: AgentHealth }) {
  if (health.modelId === null) {
    return (
      <p className="bt:text-sm bt:text-muted-foreground">No model yet: train the agent to see its health.</p>
    );
  }
  const hit = health.hitRate;
  return (
    <div className="bt:flex bt:min-w-0 bt:flex-col bt:gap-4">
      <p className="bt:text-sm">
        Rolling hit rate:{' '}
        <strong className="bt:font-mono bt:tabular-nums">
          {hit.value === null ? '—' : formatPercent(hit.value, { digits: 1 })}
        </strong>{' '}
        <span className="bt:text-muted-foreground">
          over the last {hit.count} of {hit.window} resolved entries · computed{' '}
          {formatDateTime(health.computedAt)} UTC
        </span>
      </p>
      <Drift health={health} />
      <div className="bt:grid bt:grid-cols-1 bt:gap-4 bt:md:grid-cols-2">
        <div className="bt:flex bt:flex-col bt:gap-1">
          <h4 className="bt:text-sm bt:font-semibold">Calibration</h4>
          <Calibration health={health} />
        </div>
        <div className="bt:flex bt:flex-col bt:gap-1">
          <h4 className="bt:text-sm bt:font-semibold">Dissimilarity of recent bars</h4>
          <DiHistogram health={health} />
        </div>
      </div>
    </div>
  );
}
