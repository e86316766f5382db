import type {
  BacktestMarker,
  BacktestMetrics,
  BacktestTrade,
  EquityPoint,
} from '@kestrel/contracts/backtest';
import type { BarColumns, RunSettings } from '@kestrel/engine';

/** What the server hands a backtest worker: the strategy by id (functions cannot cross threads) and the bars */
/** The columns of the bars are transferred (not copied) to the worker */
export interface BacktestTask extends BarColumns {
  strategy: string;
  params: Record<string, unknown>;
  settings: RunSettings;
  intervalMs: number;
  maxEquityPoints: number;
  maxTrades: number;
}

/** What a finished run keeps: small enough to store as one row */
export interface BacktestOutcome {
  metrics: BacktestMetrics;
  equity: EquityPoint[];
  trades: BacktestTrade[];
  markers: BacktestMarker[];
}

/** `input`: the engine refused the request (bad bars or parameters); `strategy`: the strategy threw */
export type BacktestReply =
  | { ok: true; outcome: BacktestOutcome }
  | { ok: false; kind: 'input' | 'strategy' | 'internal'; message: string };
