import type { AgentEvidence, AgentModelInfo, AgentPromotionGate } from '@kestrel/contracts/agents';
import { cn, formatDate, formatDateTime, formatPercent, Spinner } from '@kestrel/ui';
import { type Figure, FigureGrid } from '@kestrel/ui/figures';
import { lazy, Suspense } from 'react';
import { CaptionedTable } from '../../../components/captioned-table';
import { statText } from '../lib/agent-words';
import { num, PassMark, td, th } from './section';

const EvidenceChart = lazy(() => import('./evidence-chart'));

type Report = NonNullable<AgentEvidence['report']>;

/** Inputs of PSR / DSR / PBO in words; an input the page does not know is listed under its own name */
const INPUT_LABELS: Record<string, string> = {
  observations: 'Observations (T)',
  sharpe: 'Sharpe per period (ŜR)',
  skew: 'Skewness (γ₃)',
  skewness: 'Skewness (γ₃)',
  kurtosis: 'Kurtosis (γ₄)',
  trialsSharpeVariance: "Trials' Sharpe variance (V)",
  sharpeVariance: "Trials' Sharpe variance (V)",
  sr0: 'Expected max Sharpe of N trials (SR₀)',
  trials: 'Trials (N)',
  splits: 'CSCV splits (S)',
  expectedMaxSharpe: 'Expected max Sharpe of N trials (SR₀)',
  inSampleSharpe: 'In-sample Sharpe per period (not evidence)',
  retention: 'Out-of-sample Sharpe ÷ in-sample',
  periods: 'Periods (T)',
  periodBars: 'Bars per period',
  randomEntryPValue: 'Random-entry p-value',
};
const inputLabel = (key: string) => INPUT_LABELS[key] ?? key;

const COST_LABELS: Record<string, string> = {
  fees: 'Fees',
  slippage: 'Slippage',
  funding: 'Funding',
  total: 'Total',
};

/** A gate's figure: counts as whole numbers, ratios with three decimals */
const gateFigure = (v: number | null) => (v !== null && Number.isInteger(v) ? String(v) : statText(v, 3));

export function GateList({ gates, label }: { gates: readonly AgentPromotionGate[]; label: string }) {
  if (gates.length === 0) return null;
  return (
    <ul aria-label={label} className="bt:flex bt:flex-col bt:gap-1 bt:text-sm">
      {gates.map((g) => (
        <li key={g.id} data-gate={g.id} className="bt:flex bt:flex-wrap bt:items-baseline bt:gap-x-2">
          <PassMark passed={g.passed} />
          <span>{g.label}</span>
          {(g.value !== null || g.limit !== null) && (
            <span className="bt:font-mono bt:text-xs bt:tabular-nums bt:text-muted-foreground">
              {gateFigure(g.value)}
              {g.limit !== null ? ` (needs ${gateFigure(g.limit)})` : ''}
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}

function headline(report: Report, trials: number): Figure[] {
  const p = (v: number | null) => (v === null ? '—' : statText(v, 3));
  return [
    { key: 'psr', label: 'PSR', value: p(report.psr), hint: 'P(true Sharpe > 0)' },
    { key: 'dsr', label: 'Deflated Sharpe', value: p(report.dsr), hint: `after ${trials} trials` },
    { key: 'pbo', label: 'PBO', value: p(report.pbo), hint: 'P(backtest overfit)' },
    {
      key: 'trials',
      label: 'Trials (N)',
      value: String(trials),
      // The registry counts configurations; the DSR also counts the threshold variants each evaluation tries, so
      // its N is larger: said here, or "1" beside "N = 12" in the gate reads as a contradiction
      hint:
        (report.inputs.trials ?? 0) > trials
          ? `configurations tried; the DSR counts ${report.inputs.trials} with variants`
          : 'configurations tried',
    },
    {
      key: 'cv',
      label: 'Purged CV',
      value: p(report.cv.mean),
      hint: `${report.cv.folds.length} folds, ${statText(report.cv.embargoPct, 1)} % embargo`,
    },
  ];
}

/** Folds shown open at most; more (a 1h agent has ~80) sit behind their summary, so the page stays readable */
const FOLDS_OPEN = 12;

function Folds({ report }: { report: Report }) {
  // A Sharpe column the report has no figure for says nothing: it is left out, not filled with dashes
  const sharpe = report.folds.some((f) => f.sharpe !== null);
  const inSample = report.folds.some((f) => f.inSampleSharpe !== null);
  return (
    <CaptionedTable label="Walk-forward folds">
      <thead>
        <tr>
          <th className={th}>Fold</th>
          <th className={th}>Train</th>
          <th className={th}>Test</th>
          <th className={cn(th, 'bt:text-right')}>Trades</th>
          <th className={cn(th, 'bt:text-right')}>Return</th>
          {sharpe && <th className={cn(th, 'bt:text-right')}>Sharpe (test)</th>}
          {inSample && <th className={cn(th, 'bt:text-right')}>Sharpe (in sample)</th>}
        </tr>
      </thead>
      <tbody>
        {report.folds.map((f) => (
          <tr key={f.fold} className="bt:border-t bt:border-border">
            <td className={td}>{f.fold}</td>
            <td className={cn(td, 'bt:whitespace-nowrap')}>
              {formatDate(f.trainFrom)} → {formatDate(f.trainTo)}
            </td>
            <td className={cn(td, 'bt:whitespace-nowrap')}>
              {formatDate(f.testFrom)} → {formatDate(f.testTo)}
            </td>
            <td className={num}>{f.trades}</td>
            <td className={num}>{formatPercent(f.returnPct / 100, { signed: true })}</td>
            {sharpe && <td className={num}>{statText(f.sharpe)}</td>}
            {/* In-sample figures are greyed: never the headline */}
            {inSample && (
              <td className={cn(num, 'bt:text-muted-foreground bt:italic')} data-in-sample="true">
                {statText(f.inSampleSharpe)}
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </CaptionedTable>
  );
}

function KeyValues({
  label,
  values,
  words,
}: {
  label: string;
  values: Record<string, number | null>;
  words: (k: string) => string;
}) {
  const entries = Object.entries(values);
  if (entries.length === 0) return <p className="bt:text-sm bt:text-muted-foreground">None recorded.</p>;
  return (
    <dl aria-label={label} className="bt:grid bt:grid-cols-[1fr_auto] bt:gap-x-4 bt:gap-y-1 bt:text-sm">
      {entries.map(([key, value]) => (
        <div key={key} className="bt:contents">
          <dt className="bt:text-muted-foreground">{words(key)}</dt>
          <dd className="bt:text-right bt:font-mono bt:tabular-nums">
            {/* Counts (trials, periods, bars) as whole numbers, not 12.0000 */}
            {value !== null && Number.isInteger(value) ? String(value) : statText(value, 4)}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** The model's in-sample figures: greyed, labelled, never the headline */
function InSample({ model }: { model: AgentModelInfo }) {
  const s = model.inSample;
  return (
    <p data-in-sample="true" className="bt:text-xs bt:text-muted-foreground bt:italic">
      In sample (training window {formatDate(model.trainedFrom)} → {formatDate(model.trainedTo)}, {model.rows}{' '}
      rows; not evidence): accuracy {formatPercent(s.accuracy, { digits: 1 })}, log loss{' '}
      {statText(s.logLoss, 3)}, labels up {formatPercent(s.up, { digits: 0 })} / flat{' '}
      {formatPercent(s.flat, { digits: 0 })} / down {formatPercent(s.down, { digits: 0 })}.
    </p>
  );
}

/** Walk-forward evidence: the curves, the per-fold table, PSR / DSR / PBO with their inputs, costs, gates, drift */
export function EvidenceView({ evidence, model }: { evidence: AgentEvidence; model: AgentModelInfo | null }) {
  const report = evidence.report;
  return (
    <div className="bt:flex bt:min-w-0 bt:flex-col bt:gap-4" data-trials={evidence.trials}>
      {report === null ? (
        <div className="bt:flex bt:flex-col bt:gap-1 bt:text-sm">
          {evidence.reportError && (
            <p role="status" className="bt:font-medium bt:text-destructive">
              {/* The server's own sentence ("Evidence not computed: …") */}
              {evidence.reportError}
            </p>
          )}
          <p className="bt:text-muted-foreground">
            No evidence yet: training computes it (walk-forward out-of-sample results, purged
            cross-validation, the deflated Sharpe ratio and the probability of overfitting) when the history
            holds enough bars for its folds.{' '}
            {evidence.trials === 1 ? '1 configuration' : `${evidence.trials} configurations`} tried so far.
          </p>
        </div>
      ) : (
        <>
          <p className="bt:text-sm">
            <span
              className={
                report.passed ? 'bt:font-medium bt:text-success' : 'bt:font-medium bt:text-destructive'
              }
            >
              {report.passed ? 'The evidence passes its gates.' : 'The evidence does not pass its gates.'}
            </span>{' '}
            <span className="bt:text-muted-foreground">
              Computed {formatDateTime(report.computedAt)} UTC.
            </span>
          </p>
          <FigureGrid
            label="Evidence figures"
            className="bt:lg:grid-cols-5"
            figures={headline(report, evidence.trials)}
          />
          <Suspense fallback={<Spinner label="Loading the chart…" />}>
            <EvidenceChart report={report} />
          </Suspense>
          <GateList gates={report.gates} label="Evidence gates" />
          <div className="bt:grid bt:grid-cols-1 bt:gap-4 bt:md:grid-cols-2">
            <div className="bt:flex bt:flex-col bt:gap-1">
              <h4 className="bt:text-sm bt:font-semibold">Inputs of PSR, DSR and PBO</h4>
              <KeyValues label="Inputs of PSR, DSR and PBO" values={report.inputs} words={inputLabel} />
            </div>
            <div className="bt:flex bt:flex-col bt:gap-1">
              <h4 className="bt:text-sm bt:font-semibold">Costs out of sample (per unit of budget)</h4>
              <KeyValues
                label="Costs out of sample"
                values={report.costs}
                words={(k) => COST_LABELS[k] ?? k}
              />
            </div>
          </div>
          {report.folds.length > 0 && (
            <details
              className="bt:flex bt:flex-col bt:gap-1"
              open={report.folds.length <= FOLDS_OPEN}
              data-folds={report.folds.length}
            >
              <summary className="bt:cursor-pointer bt:text-sm bt:font-semibold">
                Walk-forward folds ({report.folds.length})
              </summary>
              <Folds report={report} />
            </details>
          )}
        </>
      )}
      <div className="bt:flex bt:flex-col bt:gap-1 bt:text-sm">
        <h4 className="bt:font-semibold">Paper against backtest</h4>
        {evidence.paperDrift ? (
          <p>
            {formatDate(evidence.paperDrift.from)} → {formatDate(evidence.paperDrift.to)}: paper{' '}
            {formatPercent(evidence.paperDrift.paperReturnPct / 100, { signed: true })}, backtest of the same
            bars {formatPercent(evidence.paperDrift.backtestReturnPct / 100, { signed: true })} (
            {evidence.paperDrift.trades} trades).
          </p>
        ) : (
          <p className="bt:text-muted-foreground">Not yet: the agent has not traded on paper.</p>
        )}
      </div>
      {model && <InSample model={model} />}
    </div>
  );
}
