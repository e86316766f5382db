import {
  DASHBOARD_DEFAULT_RANGE_MS,
  type FuturesTrade,
  HISTORY_DEFAULT_RANGE_MS,
  type HistoryOrder,
  type IncomeEntry,
  type IncomeQuery,
  type OrderHistoryPage,
  type OrderHistoryQuery,
  type PlacedBy,
  type TradeHistoryPage,
  type TradeHistoryQuery,
} from '@kestrel/contracts';
import type { TradingAccount } from '../../core/environment/trading-account';
import type { AccountRecorder } from '../../core/recorder/account-recorder';
import type { HistoryFilter, HistoryRepository } from '../../core/recorder/history-repository';
import { incomeFilterOf, type RecorderRepository } from '../../core/recorder/recorder-repository';
import type { Clock, Timer } from '../../lib/clock';
import type { Queryable } from '../../lib/database/database';
import type { OrderIntentRepository } from '../../trading/orders/order-intent-repository';
import { type CsvColumn, csvRows } from './csv';

/**
 * How long a read waits for the import it started before answering from what is stored (the import goes on, and
 * the page's next read has it): a slow exchange does not hold the history page
 */
export const IMPORT_WAIT_MS = 2_000;

/** A CSV download: its file name and its text, produced page by page as it is sent */
export interface CsvExport {
  filename: string;
  lines: AsyncIterable<string>;
}

/** "bot:Grid BTC", "you", "kill switch", "outside Kestrel" */
function placedByWords(by: PlacedBy): string {
  switch (by.kind) {
    case 'bot':
      return `bot:${by.botName ?? 'deleted bot'}`;
    case 'manual':
      return 'you';
    case 'kill_switch':
      return 'kill switch';
    case 'outside':
      return 'outside Kestrel';
  }
}

const TRADE_COLUMNS: CsvColumn<FuturesTrade & { placedBy: PlacedBy }>[] = [
  { header: 'time', value: (t) => new Date(t.time).toISOString() },
  { header: 'symbol', value: (t) => t.symbol },
  { header: 'side', value: (t) => t.side },
  { header: 'positionSide', value: (t) => t.positionSide },
  { header: 'price', value: (t) => t.price },
  { header: 'quantity', value: (t) => t.quantity },
  { header: 'quoteQuantity', value: (t) => t.quoteQuantity },
  { header: 'realizedPnl', value: (t) => t.realizedPnl },
  { header: 'commission', value: (t) => t.commission },
  { header: 'commissionAsset', value: (t) => t.commissionAsset },
  { header: 'maker', value: (t) => t.maker },
  { header: 'tradeId', value: (t) => t.id },
  { header: 'orderId', value: (t) => t.orderId },
  { header: 'placedBy', value: (t) => placedByWords(t.placedBy) },
];
const ORDER_COLUMNS: CsvColumn<HistoryOrder & { placedBy: PlacedBy }>[] = [
  { header: 'time', value: (o) => new Date(o.time).toISOString() },
  { header: 'updatedAt', value: (o) => new Date(o.updatedAt).toISOString() },
  { header: 'symbol', value: (o) => o.symbol },
  { header: 'side', value: (o) => o.side },
  { header: 'type', value: (o) => o.type },
  { header: 'status', value: (o) => o.status },
  { header: 'price', value: (o) => o.price },
  { header: 'averagePrice', value: (o) => o.averagePrice },
  { header: 'quantity', value: (o) => o.quantity },
  { header: 'executedQuantity', value: (o) => o.executedQuantity },
  { header: 'triggerPrice', value: (o) => o.triggerPrice },
  { header: 'timeInForce', value: (o) => o.timeInForce },
  { header: 'reduceOnly', value: (o) => o.reduceOnly },
  { header: 'positionSide', value: (o) => o.positionSide },
  { header: 'orderId', value: (o) => o.orderId },
  { header: 'clientOrderId', value: (o) => o.clientOrderId },
  { header: 'placedBy', value: (o) => placedByWords(o.placedBy) },
];
const INCOME_COLUMNS: CsvColumn<IncomeEntry>[] = [
  { header: 'time', value: (i) => new Date(i.time).toISOString() },
  { header: 'type', value: (i) => i.incomeType },
  { header: 'symbol', value: (i) => i.symbol },
  { header: 'amount', value: (i) => i.income },
  { header: 'asset', value: (i) => i.asset },
  { header: 'info', value: (i) => i.info },
  { header: 'tranId', value: (i) => i.tranId },
  { header: 'tradeId', value: (i) => i.tradeId },
];

/** `kestrel-trades-20260101-20260131.csv`: what and which days (UTC) */
function filename(what: string, from: number, to: number): string {
  const day = (t: number) => new Date(t).toISOString().slice(0, 10).replaceAll('-', '');
  return `kestrel-${what}-${day(from)}-${day(to)}.csv`;
}

/**
 * The signed-in user's order, fill and income history from the recorder's tables: filtered, sorted and paged by
 * the database, or every matching row as CSV. Only the account the request resolved is read (the user's current
 * environment's: a switch to mainnet shows mainnet's history, never testnet's beside it). A read of orders or fills first asks the
 * recorder to import what is new when its last import is a few seconds old, so a fill of a moment ago is there
 */
export class HistoryService {
  constructor(
    private readonly db: Queryable,
    private readonly repos: {
      history: HistoryRepository;
      recorder: RecorderRepository;
      /** Who placed each order: Kestrel's own record of what it sent */
      intents: Pick<OrderIntentRepository, 'placersOf'>;
    },
    private readonly recorder: Pick<AccountRecorder, 'refreshHistory'>,
    private readonly clock: Clock,
  ) {}

  /**
   * Symbols the filter can pick: every one with imported orders, fills or income (after the import a read of the
   * same moment started, so the list names the symbols of the rows it shows)
   */
  async symbols(account: TradingAccount): Promise<string[]> {
    await this.fresh(account);
    return this.repos.history.historySymbols(this.db, account);
  }

  async trades(account: TradingAccount, query: TradeHistoryQuery): Promise<TradeHistoryPage> {
    await this.fresh(account);
    const filter = this.filter(query);
    const [found, importedAt] = await Promise.all([
      this.repos.history.trades(this.db, account, { ...filter, sort: query.sort }),
      this.repos.history.importedAt(this.db, account),
    ]);
    const items = await this.withPlacers(account, found.items);
    return { ...this.pageOf(query, filter), ...found, items, importedAt };
  }

  async orders(account: TradingAccount, query: OrderHistoryQuery): Promise<OrderHistoryPage> {
    await this.fresh(account);
    const filter = this.filter(query);
    const [found, importedAt] = await Promise.all([
      this.repos.history.orders(this.db, account, {
        ...filter,
        sort: query.sort,
        type: query.type,
        status: query.status,
      }),
      this.repos.history.importedAt(this.db, account),
    ]);
    const items = await this.withPlacers(account, found.items);
    return { ...this.pageOf(query, filter), ...found, items, importedAt };
  }

  /** The rows with who placed their order: a bot, you, the kill switch, or something outside Kestrel */
  private async withPlacers<T extends { symbol: string; orderId: string }>(
    account: TradingAccount,
    rows: readonly T[],
  ): Promise<(T & { placedBy: PlacedBy })[]> {
    const key = (row: T) => `${row.symbol}:${row.orderId}`;
    const placers = await this.repos.intents.placersOf(this.db, account, [...new Set(rows.map(key))]);
    return rows.map((row) => ({ ...row, placedBy: placers.get(key(row)) ?? { kind: 'outside' } }));
  }

  /** Every fill matching the filter (page and pageSize ignored), in the asked order */
  async tradesCsv(account: TradingAccount, query: TradeHistoryQuery): Promise<CsvExport> {
    await this.fresh(account);
    const filter = this.filter(query);
    return {
      filename: filename('trades', filter.from, filter.to),
      lines: csvRows(TRADE_COLUMNS, async (offset, limit) =>
        this.withPlacers(
          account,
          await this.repos.history.tradeRows(this.db, account, {
            ...filter,
            sort: query.sort,
            offset,
            limit,
          }),
        ),
      ),
    };
  }

  /** Every order matching the filter (page and pageSize ignored), in the asked order */
  async ordersCsv(account: TradingAccount, query: OrderHistoryQuery): Promise<CsvExport> {
    await this.fresh(account);
    const filter = this.filter(query);
    return {
      filename: filename('orders', filter.from, filter.to),
      lines: csvRows(ORDER_COLUMNS, async (offset, limit) =>
        this.withPlacers(
          account,
          await this.repos.history.orderRows(this.db, account, {
            ...filter,
            sort: query.sort,
            type: query.type,
            status: query.status,
            offset,
            limit,
          }),
        ),
      ),
    };
  }

  /** Every income entry matching the filter of `GET /dashboard/income` (page and pageSize ignored) */
  async incomeCsv(account: TradingAccount, query: IncomeQuery): Promise<CsvExport> {
    // The account is fixed when the export starts: a switch during a long download does not mix accounts
    const to = query.to ?? this.clock.now().getTime();
    const from = query.from ?? Math.max(0, to - DASHBOARD_DEFAULT_RANGE_MS);
    return {
      filename: filename('income', from, to),
      lines: csvRows(INCOME_COLUMNS, async (offset, limit) => {
        const page = await this.repos.recorder.income(this.db, account, {
          ...incomeFilterOf(query, from, to),
          offset,
          limit,
        });
        return page.items;
      }),
    };
  }

  /** Imports what is new of the account first (waiting at most `IMPORT_WAIT_MS`) */
  private async fresh(account: TradingAccount): Promise<void> {
    let timer: Timer | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = this.clock.after(IMPORT_WAIT_MS, resolve, { unref: true });
    });
    await Promise.race([this.recorder.refreshHistory(account), waited]);
    timer?.cancel();
  }

  private filter(query: TradeHistoryQuery | OrderHistoryQuery): HistoryFilter {
    const to = query.to ?? this.clock.now().getTime();
    const from = query.from ?? Math.max(0, to - HISTORY_DEFAULT_RANGE_MS);
    return {
      from,
      to,
      symbol: query.symbol,
      side: query.side,
      order: query.order,
      offset: (query.page - 1) * query.pageSize,
      limit: query.pageSize,
    };
  }

  private pageOf(query: { page: number; pageSize: number }, filter: HistoryFilter) {
    return { from: filter.from, to: filter.to, page: query.page, pageSize: query.pageSize };
  }
}
