import { z } from 'zod';
import { okResponse } from '../common/error-response';
import {
  countParam,
  decimal,
  fromNotAfterTo,
  incomeFields,
  ms,
  orderParam,
  pageOf,
  rangeQuery,
  sortParam,
  walletFields,
} from '../common/fields';
import { FuturesPositionSchema, PositionSideSchema } from '../futures/futures';
import { SymbolSchema } from '../market/market';

/** Realized figures of one window from the exchange's income history; fees and funding paid are negative */
export const RealizedPnlSchema = z.object({
  /** Window, ms since epoch, both ends inclusive */
  from: ms,
  to: ms,
  ...incomeFields,
  /** realizedPnl + commission + fundingFee */
  net: decimal,
});
export type RealizedPnl = z.infer<typeof RealizedPnlSchema>;

/**
 * GET /api/v1/dashboard/overview: the account cards. Money in the account's margin currency (USDT for a
 * single-asset account), decimal strings as the exchange writes them
 */
export const DashboardOverviewSchema = z.object({
  walletBalance: decimal,
  /** Wallet balance + unrealized PnL */
  marginBalance: decimal,
  /** What new orders may still use */
  availableMargin: decimal,
  unrealizedPnl: decimal,
  initialMargin: decimal,
  maintenanceMargin: decimal,
  /**
   * Maintenance margin / margin balance, 4 decimals; the exchange liquidates at 1. "0" without maintenance margin,
   * "1.0000" when margin is held and the margin balance is zero or negative
   */
  marginRatio: decimal.describe(
    'Maintenance margin / margin balance, 4 decimals; the exchange liquidates the account at 1 ' +
      '("0" without maintenance margin, "1.0000" when the margin balance is gone)',
  ),
  /** Realized PnL, commission and funding since 00:00 UTC today (the server's clock), up to `asOf` */
  today: RealizedPnlSchema.describe('Income since 00:00 UTC today, up to asOf'),
  /** Positions with a non-zero amount */
  openPositions: z.number().int().nonnegative(),
  /** Working orders and waiting conditional orders */
  openOrders: z.number().int().nonnegative(),
  /** Bots running (or starting) */
  activeBots: z.number().int().nonnegative().describe('Bots of the user that are running or starting'),
  /** When the figures were read (server clock), ms since epoch */
  asOf: ms,
});
export type DashboardOverview = z.infer<typeof DashboardOverviewSchema>;

/** One asset of the futures wallet; `usdtValue` and `share` are null when the asset has no USDT price */
export const PortfolioAssetSchema = z.object({
  asset: z.string(),
  ...walletFields,
  /** Margin balance valued in USDT (USDT itself at 1, others at the `<asset>USDT` last price) */
  usdtValue: decimal.nullable(),
  /** usdtValue / the sum of the valued assets' usdtValue, 4 decimals */
  share: decimal.nullable(),
});
export type PortfolioAsset = z.infer<typeof PortfolioAssetSchema>;

/** One open position's weight in the account */
export const PositionAllocationSchema = z.object({
  symbol: z.string(),
  positionSide: PositionSideSchema,
  /** |notional| in the quote asset */
  exposure: decimal,
  /** exposure / gross exposure, 4 decimals */
  exposureShare: decimal,
  /** Initial margin / account margin balance, 4 decimals ("0" without margin balance) */
  marginShare: decimal,
});
export type PositionAllocation = z.infer<typeof PositionAllocationSchema>;

/**
 * GET /api/v1/dashboard/portfolio: per-asset balances, the open positions and how the account is split between
 * them. Assets with nothing in them are left out
 */
export const DashboardPortfolioSchema = z.object({
  totals: z.object({
    ...walletFields,
    /** Margin the open positions hold (Binance's totalInitialMargin, open orders' margin included) */
    initialMargin: decimal,
    /** What the positions need to stay open; margin ratio = maintMargin / marginBalance */
    maintMargin: decimal,
  }),
  assets: z.array(PortfolioAssetSchema),
  /** Open positions only */
  positions: z.array(FuturesPositionSchema),
  allocation: z.object({
    /** Sum of |notional| of the open positions */
    grossExposure: decimal,
    /** Longs minus shorts (signed notional) */
    netExposure: decimal,
    positions: z.array(PositionAllocationSchema),
  }),
  /** When the figures were read (server clock), ms since epoch */
  asOf: ms,
});
export type DashboardPortfolio = z.infer<typeof DashboardPortfolioSchema>;

export const DashboardOverviewResponseSchema = okResponse(DashboardOverviewSchema);
export const DashboardPortfolioResponseSchema = okResponse(DashboardPortfolioSchema);

/** Most points an equity answer carries; longer ranges are downsampled to this many buckets */
export const EQUITY_MAX_POINTS = 1000;
/** Default span of the equity and income reads when `from` is not given */
export const DASHBOARD_DEFAULT_RANGE_MS = 30 * 86_400_000;
/** Income types Binance books on a USDⓈ-M account (others may appear; the filter accepts any upper-case name) */
export const INCOME_TYPES = [
  'TRANSFER',
  'WELCOME_BONUS',
  'REALIZED_PNL',
  'FUNDING_FEE',
  'COMMISSION',
  'INSURANCE_CLEAR',
  'REFERRAL_KICKBACK',
  'COMMISSION_REBATE',
  'API_REBATE',
  'CONTEST_REWARD',
  'CROSS_COLLATERAL_TRANSFER',
  'OPTIONS_PREMIUM_FEE',
  'OPTIONS_SETTLE_PROFIT',
  'INTERNAL_TRANSFER',
  'AUTO_EXCHANGE',
  'DELIVERED_SETTELMENT',
  'COIN_SWAP_DEPOSIT',
  'COIN_SWAP_WITHDRAW',
  'POSITION_LIMIT_INCREASE_FEE',
  'STRATEGY_UMFUTURES_TRANSFER',
  'FEE_RETURN',
  'BFUSD_REWARD',
] as const;

export type IncomeType = (typeof INCOME_TYPES)[number];

/** What a trader reads for each income type (Binance's enum words are not names, and one is misspelt) */
export const INCOME_TYPE_NAMES: Record<IncomeType, string> = {
  TRANSFER: 'Transfer',
  WELCOME_BONUS: 'Welcome bonus',
  REALIZED_PNL: 'Realized PnL',
  FUNDING_FEE: 'Funding fee',
  COMMISSION: 'Trading fee',
  INSURANCE_CLEAR: 'Insurance fund clearance',
  REFERRAL_KICKBACK: 'Referral rebate',
  COMMISSION_REBATE: 'Fee rebate',
  API_REBATE: 'API rebate',
  CONTEST_REWARD: 'Contest reward',
  CROSS_COLLATERAL_TRANSFER: 'Cross-collateral transfer',
  OPTIONS_PREMIUM_FEE: 'Options premium',
  OPTIONS_SETTLE_PROFIT: 'Options settlement profit',
  INTERNAL_TRANSFER: 'Internal transfer',
  AUTO_EXCHANGE: 'Auto-exchange',
  DELIVERED_SETTELMENT: 'Delivery settlement',
  COIN_SWAP_DEPOSIT: 'Coin swap in',
  COIN_SWAP_WITHDRAW: 'Coin swap out',
  POSITION_LIMIT_INCREASE_FEE: 'Position limit increase fee',
  STRATEGY_UMFUTURES_TRANSFER: 'Strategy transfer',
  FEE_RETURN: 'Fee return',
  BFUSD_REWARD: 'BFUSD reward',
};

/** The name of an income type; one Binance adds later reads as its words ("NEW_KIND" → "New kind") */
export function incomeTypeName(type: string): string {
  const known = (INCOME_TYPE_NAMES as Record<string, string | undefined>)[type];
  if (known) return known;
  const text = type.toLowerCase().replaceAll('_', ' ');
  return text.replace(/^./, (c) => c.toUpperCase());
}

/** GET /api/v1/dashboard/equity?from&to */
export const EquityQuerySchema = fromNotAfterTo(z.strictObject(rangeQuery));
export type EquityQuery = z.infer<typeof EquityQuerySchema>;

/**
 * One recorded equity point: the last snapshot of its bucket (one minute when not downsampled), plus the lowest
 * margin balance seen in the bucket, so a drawdown survives downsampling
 */
export const EquitySnapshotSchema = z.object({
  /** The minute the snapshot was taken in, ms since epoch */
  time: ms,
  walletBalance: decimal,
  unrealizedPnl: decimal,
  marginBalance: decimal,
  maintenanceMargin: decimal,
  /** Lowest margin balance of the bucket (equals marginBalance when the bucket holds one snapshot) */
  marginBalanceLow: decimal,
});
export type EquitySnapshot = z.infer<typeof EquitySnapshotSchema>;

/** The recorder's equity snapshots of a range, oldest first, at most `EQUITY_MAX_POINTS` */
export const EquityHistorySchema = z.object({
  from: ms,
  to: ms,
  /** Bucket width in ms: 60000 when every snapshot is returned, wider when downsampled */
  bucketMs: z.number().int().positive(),
  points: z.array(EquitySnapshotSchema),
});
export type EquityHistory = z.infer<typeof EquityHistorySchema>;

/** Columns the income history can be sorted on */
export const INCOME_SORT_FIELDS = ['time', 'income', 'incomeType', 'symbol'] as const;
export type IncomeSortField = (typeof INCOME_SORT_FIELDS)[number];

/** GET /api/v1/dashboard/income?from&to&type&symbol&sort&order&page&pageSize: newest first by default */
export const IncomeQuerySchema = fromNotAfterTo(
  z.strictObject({
    ...rangeQuery,
    type: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z_]{1,40}$/, `type must be an income type such as ${INCOME_TYPES.slice(2, 5).join(', ')}`)
      .optional()
      .describe(`Only this income type: ${INCOME_TYPES.join(', ')}`),
    symbol: SymbolSchema.optional().describe('Only entries of this symbol (transfers have none)'),
    sort: sortParam(INCOME_SORT_FIELDS),
    order: orderParam,
    page: countParam('page', { default: 1 }),
    pageSize: countParam('pageSize', { max: 1000, default: 100 }),
  }),
);
export type IncomeQuery = z.infer<typeof IncomeQuerySchema>;

/** One entry of the account's income history as Binance booked it; amounts paid are negative */
export const IncomeEntrySchema = z.object({
  /** Binance's id, unique per income type and account */
  tranId: z.string(),
  incomeType: z.string(),
  /** "" for account-wide entries (transfers) */
  symbol: z.string(),
  income: decimal,
  asset: z.string(),
  info: z.string(),
  /** The fill that booked it, "" otherwise */
  tradeId: z.string(),
  time: ms,
});
export type IncomeEntry = z.infer<typeof IncomeEntrySchema>;

export const IncomePageSchema = z.object({
  ...pageOf(IncomeEntrySchema),
  /** Up to when the account's income has been imported, ms since epoch; null before the first import */
  syncedTo: ms.nullable(),
});
export type IncomePage = z.infer<typeof IncomePageSchema>;

export const EquityHistoryResponseSchema = okResponse(EquityHistorySchema);
export const IncomePageResponseSchema = okResponse(IncomePageSchema);
