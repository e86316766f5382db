import { z } from 'zod';
import { AccountTestResultSchema } from '../credentials/binance-credentials';
import { EXCHANGE_IDS } from './exchange-ids';

/** The exchanges the product lists (spec §1): only binance can be connected, the others are coming soon */
export const ExchangeIdSchema = z.enum(EXCHANGE_IDS);

/**
 * The credentials form (spec §3, §5): both fields required, messages as the spec words them. The placeholder
 * mentions a 64-character key but no length rule is enforced.
 */
export const CredentialsFormSchema = z.object({
  apiKey: z.string().min(1, 'API Key is required'),
  secretKey: z.string().min(1, 'Secret Key is required'),
});
export type CredentialsFormValues = z.infer<typeof CredentialsFormSchema>;

/**
 * What the live socket's test_binance_connection tool answers inside `result.content[0].text`: the same
 * success/data/error/message wrapper as the REST calls
 */
export const ConnectionTestReplySchema = z.looseObject({
  success: z.boolean(),
  data: AccountTestResultSchema.optional(),
  error: z.string().optional(),
  message: z.string().optional(),
});
export type ConnectionTestReply = z.infer<typeof ConnectionTestReplySchema>;
