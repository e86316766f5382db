import { z } from 'zod';
import { okResponse } from '../common/error-response';

/** Regions a Binance USDⓈ-M account can live in; futures exist on the global site only */
export const BINANCE_REGIONS = ['global'] as const;
export const BinanceRegionSchema = z.enum(BINANCE_REGIONS, { error: 'region must be "global"' });
export type BinanceRegion = z.infer<typeof BinanceRegionSchema>;

export const CREDENTIAL_MAX_LENGTH = 512;
/**
 * Binance's keys are printable ASCII (letters and digits in practice). Anything else could never be sent: an HTTP
 * header carries no other character, so an accented or pasted-with-a-space key is refused here with its reason
 * (an empty key passes this rule: "required" says what is wrong with it)
 */
const PRINTABLE_ASCII = /^[\x21-\x7e]*$/;
const printable = (label: string) =>
  `${label} must be letters, digits and symbols only, as Binance shows it (no spaces or accented letters)`;

/** POST /api/v1/credentials/binance and POST /api/v1/credentials/validate/binance (spec §3 credentials payload) */
export const CreateBinanceCredentialsSchema = z.strictObject({
  api_key: z
    .string({ error: 'api_key must be a string' })
    .trim()
    .min(1, { error: 'API Key is required' })
    .max(CREDENTIAL_MAX_LENGTH, { error: `api_key must be at most ${CREDENTIAL_MAX_LENGTH} characters` })
    .regex(PRINTABLE_ASCII, { error: printable('API Key') }),
  secret_key: z
    .string({ error: 'secret_key must be a string' })
    .trim()
    .min(1, { error: 'Secret Key is required' })
    .max(CREDENTIAL_MAX_LENGTH, { error: `secret_key must be at most ${CREDENTIAL_MAX_LENGTH} characters` })
    .regex(PRINTABLE_ASCII, { error: printable('Secret Key') }),
  region: BinanceRegionSchema.default('global'),
});
export type CreateBinanceCredentials = z.infer<typeof CreateBinanceCredentialsSchema>;
export type CreateBinanceCredentialsInput = z.input<typeof CreateBinanceCredentialsSchema>;

/** Path parameter of the credentials calls for exchanges other than binance (all answer "not supported yet") */
export const ExchangeParamsSchema = z.strictObject({
  exchange: z.string().min(1).max(32),
});
export type ExchangeParams = z.infer<typeof ExchangeParamsSchema>;

/** Stored credentials as the API shows them: the key masked, the secret never */
export const BinanceCredentialsSchema = z.object({
  exchange: z.literal('binance'),
  api_key_masked: z.string(),
  region: BinanceRegionSchema,
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
  /**
   * The last permission check (on save, then on the server's schedule); null for a key stored before checks were
   * kept. `ok: false`: Kestrel opens no new position with it, `reason` says why
   */
  last_check: z
    .object({ at: z.iso.datetime(), ok: z.boolean(), reason: z.string().nullable() })
    .nullable()
    .optional(),
});
export type BinanceCredentials = z.infer<typeof BinanceCredentialsSchema>;

/** GET and POST /api/v1/credentials/binance */
export const BinanceCredentialsResponseSchema = okResponse(BinanceCredentialsSchema);
export type BinanceCredentialsResponse = z.infer<typeof BinanceCredentialsResponseSchema>;

/** How the account trades positions: one net position per symbol, or a long and a short side by side */
export const POSITION_MODES = ['one-way', 'hedge'] as const;
export const PositionModeSchema = z.enum(POSITION_MODES);
export type PositionMode = z.infer<typeof PositionModeSchema>;

/**
 * GET /api/v1/credentials/binance/key-setup: what the stored key may do and how the account holds positions, read
 * from the exchange now (Kestrel refuses keys that can withdraw, and bots need to know the position mode)
 */
export const BinanceKeySetupSchema = z.object({
  permissions: z.object({
    reading: z.boolean(),
    futuresTrading: z.boolean(),
    withdrawals: z.boolean(),
    /** The key works from listed IP addresses only */
    ipRestricted: z.boolean(),
  }),
  positionMode: PositionModeSchema,
  /** ms since the epoch */
  readAt: z.number().int(),
});
export type BinanceKeySetup = z.infer<typeof BinanceKeySetupSchema>;
export const BinanceKeySetupResponseSchema = okResponse(BinanceKeySetupSchema);

/**
 * POST /api/v1/credentials/test-connection: the spec does not show a body, so it is optional; without one the
 * stored credentials are tested
 */
export const TestConnectionRequestSchema = CreateBinanceCredentialsSchema.nullish();

export const CONNECTIVITY_STATUSES = ['not_configured', 'unreachable', 'connected', 'error'] as const;
export const ConnectivityStatusSchema = z.enum(CONNECTIVITY_STATUSES);
export type ConnectivityStatus = z.infer<typeof ConnectivityStatusSchema>;

/** GET /api/v1/credentials/binance/status: the browser reads `data.connectivity_status` and `message` */
export const CredentialsStatusResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    exchange: z.literal('binance'),
    configured: z.boolean(),
    connectivity_status: ConnectivityStatusSchema,
  }),
  message: z.string(),
});
export type CredentialsStatusResponse = z.infer<typeof CredentialsStatusResponseSchema>;

/** Spec §3 "Account test result data": what a successful connection test or validation returns */
export const AccountTestResultSchema = z.object({
  accountType: z.string(),
  totalWalletBalance: z.string(),
  totalUnrealizedProfit: z.string(),
  totalMarginBalance: z.string(),
  canTrade: z.boolean(),
  canWithdraw: z.boolean(),
  canDeposit: z.boolean(),
  assetsCount: z.number().int().nonnegative(),
  positionsCount: z.number().int().nonnegative(),
});
export type AccountTestResult = z.infer<typeof AccountTestResultSchema>;

/** Successful answer of test-connection and validate/binance */
export const AccountTestResponseSchema = okResponse(AccountTestResultSchema);
export type AccountTestResponse = z.infer<typeof AccountTestResponseSchema>;
