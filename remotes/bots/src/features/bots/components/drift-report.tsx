import type { DriftMatch, DriftReport as DriftReportData, DriftTrade } from '@kestrel/contracts/bots';
import {
  Button,
  cn,
  formatDateTime,
  formatPnl,
  formatPrice,
  formatUsdt,
  Spinner,
  toneClassName,
  toneOf,
} from '@kestrel/ui';
import { type Figure, FigureGrid } from '@kestrel/ui/figures';
import { CaptionedTable } from '../../../components/captioned-table';
import { useBotDrift } from '../api/get-bot-drift';

/** "+1 bar", "−30 s", "0": a time difference in the bot's bars when whole, else in seconds */
export function timeDiffText(ms: number | null, intervalMs: number): string {
  if (ms === null) return '—';
  if (ms === 0) return '0';
  const sign = ms > 0 ? '+' : '−';
  const abs = Math.abs(ms);
  if (abs % intervalMs === 0) {
    const bars = abs / intervalMs;
    return `${sign}${bars} bar${bars === 1 ? '' : 's'}`;
  }
  return `${sign}${Math.round(abs / 1000)} s`;
}

/** Slippage in basis points, coloured against the trader (positive = worse: red) */
function Bps({ value }: { value: number | null }) {
  if (value === null) return <>—</>;
  // A positive slippage is a cost: its tone is the loss's
  const tone = toneOf(-value, { digits: 1 });
  return (
    <span className={toneClassName(tone)}>
      {value > 0 ? '+' : ''}
      {value.toFixed(1)} bp
    </span>
  );
}

const th =
  'bt:whitespace-nowrap bt:px-2 bt:py-1 bt:text-left bt:text-xs bt:font-medium bt:text-muted-foreground';
const td = 'bt:whitespace-nowrap bt:px-2 bt:py-1';
const num = cn(td, 'bt:text-right bt:font-mono bt:tabular-nums');
const sideText = (side: DriftTrade['side']) => (side === 'long' ? 'Long' : 'Short');

function MatchedTable({
  matched,
  intervalMs,
  botName,
}: {
  matched: readonly DriftMatch[];
  intervalMs: number;
  botName: string;
}) {
  const label = `Matched trades of ${botName}`;
  return (
    <CaptionedTable label={label}>
      <thead>
        <tr>
          <th className={th}>Side</th>
          <th className={th}>Bot entry (UTC)</th>
          <th className={th}>Entry time Δ</th>
          <th className={cn(th, 'bt:text-right')}>Entry bot / backtest</th>
          <th className={cn(th, 'bt:text-right')}>Entry slippage</th>
          <th className={th}>Exit time Δ</th>
          <th className={cn(th, 'bt:text-right')}>Exit bot / backtest</th>
          <th className={cn(th, 'bt:text-right')}>Exit slippage</th>
          <th className={cn(th, 'bt:text-right')}>PnL Δ</th>
          <th className={cn(th, 'bt:text-right')}>Fees Δ</th>
        </tr>
      </thead>
      <tbody>
        {matched.map((m) => {
          const pnl = formatPnl(m.realizedPnlDiff);
          return (
            <tr key={`${m.bot.entryTime}-${m.backtest.entryTime}`} className="bt:border-t bt:border-border">
              <td className={td}>{sideText(m.bot.side)}</td>
              <td className={td}>{formatDateTime(m.bot.entryTime)}</td>
              <td className={td}>{timeDiffText(m.entryTimeDiffMs, intervalMs)}</td>
              <td className={num}>
                {formatPrice(m.bot.entryPrice)} / {formatPrice(m.backtest.entryPrice)}
              </td>
              <td className={num}>
                <Bps value={m.entrySlippageBps} />
              </td>
              <td className={td}>{timeDiffText(m.exitTimeDiffMs, intervalMs)}</td>
              <td className={num}>
                {m.bot.exitPrice === null ? 'open' : formatPrice(m.bot.exitPrice)} /{' '}
                {m.backtest.exitPrice === null ? 'open' : formatPrice(m.backtest.exitPrice)}
              </td>
              <td className={num}>
                <Bps value={m.exitSlippageBps} />
              </td>
              <td className={cn(num, pnl.className)}>{pnl.text}</td>
              <td className={num}>{formatUsdt(m.feesDiff, { signed: true })}</td>
            </tr>
          );
        })}
      </tbody>
    </CaptionedTable>
  );
}

function UnmatchedTable({ trades, label }: { trades: readonly DriftTrade[]; label: string }) {
  return (
    <CaptionedTable label={label}>
      <thead>
        <tr>
          <th className={th}>Side</th>
          <th className={th}>Entry (UTC)</th>
          <th className={cn(th, 'bt:text-right')}>Entry</th>
          <th className={th}>Exit (UTC)</th>
          <th className={cn(th, 'bt:text-right')}>Exit</th>
          <th className={cn(th, 'bt:text-right')}>Realized</th>
        </tr>
      </thead>
      <tbody>
        {trades.map((t) => {
          const pnl = formatPnl(t.realizedPnl);
          return (
            <tr key={`${t.side}-${t.entryTime}`} className="bt:border-t bt:border-border">
              <td className={td}>{sideText(t.side)}</td>
              <td className={td}>{formatDateTime(t.entryTime)}</td>
              <td className={num}>{formatPrice(t.entryPrice)}</td>
              <td className={td}>{t.exitTime === null ? 'open' : formatDateTime(t.exitTime)}</td>
              <td className={num}>{t.exitPrice === null ? '—' : formatPrice(t.exitPrice)}</td>
              <td className={cn(num, pnl.className)}>{pnl.text}</td>
            </tr>
          );
        })}
      </tbody>
    </CaptionedTable>
  );
}

function summaryFigures(r: DriftReportData): Figure[] {
  const bot = formatPnl(r.totals.bot.net);
  const backtest = formatPnl(r.totals.backtest.net);
  const bps = (v: number | null) => (v === null ? '—' : `${v > 0 ? '+' : ''}${v.toFixed(1)} bp`);
  return [
    {
      key: 'trades',
      // Short labels: two figures a row on a phone
      label: 'Trades',
      value: `${r.totals.bot.trades} / ${r.totals.backtest.trades}`,
      hint: `bot / backtest, ${r.matched.length} matched`,
    },
    {
      key: 'bot-net',
      label: 'Bot net',
      value: bot.text,
      valueClassName: bot.className,
      hint: 'USDT after fees',
    },
    {
      key: 'backtest-net',
      label: 'Backtest net',
      value: backtest.text,
      valueClassName: backtest.className,
      hint: 'USDT after fees and funding',
    },
    {
      key: 'entry-slippage',
      label: 'Entry slippage',
      value: bps(r.totals.meanEntrySlippageBps),
      hint: 'mean, matched',
    },
    {
      key: 'exit-slippage',
      label: 'Exit slippage',
      value: bps(r.totals.meanExitSlippageBps),
      hint: 'mean, matched',
    },
    {
      key: 'fees',
      label: 'Fees',
      value: `${formatUsdt(r.totals.bot.fees)} / ${formatUsdt(r.totals.backtest.fees)}`,
      hint: `bot / backtest; backtest funding ${formatUsdt(r.totals.backtest.funding ?? 0)}`,
    },
  ];
}

const intervalMsOf = (r: DriftReportData) => r.matchWindowMs / 3;

/** The drift report as shown on a bot's card: where the bot's trades differ from a backtest of the same run */
export function DriftView({ report, botName }: { report: DriftReportData; botName: string }) {
  const intervalMs = intervalMsOf(report);
  return (
    <div className="bt:flex bt:flex-col bt:gap-3">
      <p className="bt:text-sm bt:text-muted-foreground">
        {formatDateTime(report.period.from)} → {formatDateTime(report.period.to)} UTC, {report.symbol}{' '}
        {report.interval}. Backtest on the same klines: maker {report.backtest.makerFeeRate * 100} %, taker{' '}
        {report.backtest.takerFeeRate * 100} %, slippage {report.backtest.slippageBps} bp
        {report.backtest.funding ? ', settled funding' : ''}. Trades match on side with entries at most 3 bars
        apart.
      </p>
      <FigureGrid
        label={`Drift of ${botName}`}
        className="bt:lg:grid-cols-6"
        figures={summaryFigures(report)}
      />
      {report.matched.length > 0 ? (
        <MatchedTable matched={report.matched} intervalMs={intervalMs} botName={botName} />
      ) : (
        <p className="bt:text-sm bt:text-muted-foreground">
          {report.totals.bot.trades === 0 && report.totals.backtest.trades === 0
            ? 'Neither the bot nor the backtest has traded in this run yet.'
            : 'No trade of the bot matches one of the backtest.'}
        </p>
      )}
      {report.botOnly.length > 0 && (
        <div className="bt:flex bt:flex-col bt:gap-1">
          <h4 className="bt:text-sm bt:font-semibold">Only the bot made these ({report.botOnly.length})</h4>
          <UnmatchedTable trades={report.botOnly} label={`Trades only ${botName} made`} />
        </div>
      )}
      {report.backtestOnly.length > 0 && (
        <div className="bt:flex bt:flex-col bt:gap-1">
          <h4 className="bt:text-sm bt:font-semibold">
            Only the backtest made these ({report.backtestOnly.length})
          </h4>
          <UnmatchedTable
            trades={report.backtestOnly}
            label={`Trades only the backtest of ${botName} made`}
          />
        </div>
      )}
      <ul className="bt:list-disc bt:pl-5 bt:text-xs bt:text-muted-foreground">
        {report.notes.map((n) => (
          <li key={n}>{n}</li>
        ))}
      </ul>
    </div>
  );
}

/** Loads the report while shown: loading, the server's reason (never ran, no backtest can cover it), or the report */
export function DriftPanel({ botId, botName }: { botId: string; botName: string }) {
  const drift = useBotDrift(botId, true);
  if (drift.isPending) return <Spinner label="Backtesting the same run…" />;
  if (drift.error) {
    return (
      <div role="alert" className="bt:flex bt:flex-wrap bt:items-center bt:gap-2 bt:text-sm">
        <span>The drift report could not be made: {drift.error.message}</span>
        <Button size="sm" variant="outline" onClick={() => void drift.refetch()}>
          Retry
        </Button>
      </div>
    );
  }
  return <DriftView report={drift.data} botName={botName} />;
}
