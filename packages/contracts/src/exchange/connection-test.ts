import { z } from 'zod';

/** The exchanges the product lists (spec §1): only binance can be connected, the others are coming soon */
export const ExchangeIdSchema = z.enum(['binance', 'coinbase', 'kraken', 'bybit']);
export type ExchangeId = z.infer<typeof ExchangeIdSchema>;

/**
 * The credentials form (spec §3, §5): both fields required, messages as the spec words them. The placeholder
 * mentions a 64-character key but no length rule is enforced.
 */
export const CredentialsFormSchema = z.object({
  apiKey: z.string().min(1, 'API Key is required'),
  secretKey: z.string().min(1, 'Secret Key is required'),
});
export type CredentialsFormValues = z.infer<typeof CredentialsFormSchema>;

/** POST /api/v1/credentials/binance body; region defaults to global (spec §9) */
export const BinanceCredentialsPayloadSchema = z.object({
  api_key: z.string().min(1),
  secret_key: z.string().min(1),
  region: z.string().default('global'),
});
export type BinanceCredentialsPayload = z.input<typeof BinanceCredentialsPayloadSchema>;

/**
 * Account test result data (spec §3). Balances are decimal strings as the exchange sends them. The flags are
 * optional because Binance's v3 account endpoint no longer returns them; absent means "not reported".
 */
export const AccountTestResultSchema = z.object({
  accountType: z.string(),
  totalWalletBalance: z.string(),
  totalUnrealizedProfit: z.string(),
  totalMarginBalance: z.string(),
  canTrade: z.boolean().optional(),
  canWithdraw: z.boolean().optional(),
  canDeposit: z.boolean().optional(),
  assetsCount: z.number().int().nonnegative(),
  positionsCount: z.number().int().nonnegative(),
});
export type AccountTestResult = z.infer<typeof AccountTestResultSchema>;

/** What the test_binance_connection tool answers inside `result.content[0].text` */
export const ConnectionTestReplySchema = z.looseObject({
  success: z.boolean(),
  data: AccountTestResultSchema.optional(),
  error: z.string().optional(),
  message: z.string().optional(),
});
export type ConnectionTestReply = z.infer<typeof ConnectionTestReplySchema>;

/** GET /api/v1/credentials/binance/status: the browser reads data.connectivity_status and message */
export const CredentialsStatusResponseSchema = z.looseObject({
  success: z.boolean().optional(),
  data: z.looseObject({ connectivity_status: z.string() }).optional(),
  message: z.string().optional(),
});
export type CredentialsStatusResponse = z.infer<typeof CredentialsStatusResponseSchema>;
