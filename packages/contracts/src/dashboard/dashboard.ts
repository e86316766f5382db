import { z } from 'zod';
import { FuturesPositionSchema, PositionSideSchema } from '../futures/futures';

const decimal = z.string().regex(/^-?\d+(\.\d+)?$/, 'must be a decimal number');
const ms = z.number().int();

/** Realized figures of one window from the exchange's income history; fees and funding paid are negative */
export const RealizedPnlSchema = z.object({
  /** Window, ms since epoch, both ends inclusive */
  from: ms,
  to: ms,
  realizedPnl: decimal,
  commission: decimal,
  fundingFee: decimal,
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
  /** Maintenance margin / margin balance, 4 decimals ("0" without margin); the exchange liquidates at 1 */
  marginRatio: decimal.describe(
    'Maintenance margin / margin balance, 4 decimals; the exchange liquidates the account at 1',
  ),
  /** Realized PnL, commission and funding since 00:00 UTC today (the server's clock), up to `asOf` */
  today: RealizedPnlSchema.describe('Income since 00:00 UTC today, up to asOf'),
  /** Positions with a non-zero amount */
  openPositions: z.number().int().nonnegative(),
  /** Working orders and waiting conditional orders */
  openOrders: z.number().int().nonnegative(),
  /** Running bots; always 0 until bots exist */
  activeBots: z
    .number()
    .int()
    .nonnegative()
    .describe('Running bots of the user; always 0 until the bot runtime exists'),
  /** When the figures were read (server clock), ms since epoch */
  asOf: ms,
});
export type DashboardOverview = z.infer<typeof DashboardOverviewSchema>;

/** One asset of the futures wallet; `usdtValue` and `share` are null when the asset has no USDT price */
export const PortfolioAssetSchema = z.object({
  asset: z.string(),
  walletBalance: decimal,
  unrealizedPnl: decimal,
  marginBalance: decimal,
  availableBalance: decimal,
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
    walletBalance: decimal,
    unrealizedPnl: decimal,
    marginBalance: decimal,
    availableBalance: decimal,
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

const ok = <T extends z.ZodType>(data: T) =>
  z.object({ success: z.literal(true), data, message: z.string() });
export const DashboardOverviewResponseSchema = ok(DashboardOverviewSchema);
export const DashboardPortfolioResponseSchema = ok(DashboardPortfolioSchema);
