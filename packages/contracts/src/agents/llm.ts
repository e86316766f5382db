import { z } from 'zod';
import { okResponse } from '../common/error-response';
import { countParam } from '../common/fields';
import { userText } from '../common/user-text';

/**
 * An agent's optional LLM reviewer (issue 18; the ai-agent reference, B1 item 7): an OpenAI-compatible chat endpoint
 * (OpenAI, Ollama's `/v1`, vLLM…) that looks at each ENTRY the model proposes and may approve it, shrink it or veto
 * it; it never originates a trade and never blocks an exit. Without settings (the default) the agent works alone.
 *
 * Calls: `GET/PUT/DELETE /api/v1/agents/{id}/llm`, `GET /api/v1/agents/{id}/llm/exchanges`.
 */

export const LLM_API_KEY_MAX_LENGTH = 512;
export const LLM_DAILY_CALL_CAP_MAX = 10_000;
export const LLM_DAILY_TOKEN_CAP_MAX = 100_000_000;
export const LLM_TIMEOUT_MS_MIN = 1_000;
export const LLM_TIMEOUT_MS_MAX = 120_000;

const httpUrl = z
  .string({ error: 'baseUrl must be a string' })
  .trim()
  .max(2048, { error: 'baseUrl must be at most 2048 characters' })
  .refine(
    (value) => {
      try {
        const url = new URL(value);
        return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password;
      } catch {
        return false;
      }
    },
    {
      error:
        'baseUrl must be an http:// or https:// address without credentials in it, e.g. https://api.openai.com/v1',
    },
  );

/** Dollars (or any currency the owner thinks in) per million tokens: only used to show spend */
const pricePerMillion = z
  .number({ error: 'prices must be numbers' })
  .min(0, { error: 'prices must be at least 0' })
  .max(10_000, { error: 'prices must be at most 10000 per million tokens' });

/**
 * PUT /api/v1/agents/{id}/llm: the settings, replacing the previous ones. `apiKey`: a new key (stored sealed in the
 * vault like exchange keys, never shown again); omitted = keep the stored one; null = remove it (Ollama needs none)
 */
export const PutAgentLlmSettingsSchema = z.object({
  baseUrl: httpUrl,
  model: userText('model', { max: 200 }),
  apiKey: z
    .string({ error: 'apiKey must be a string' })
    .trim()
    .min(1, { error: 'apiKey must not be empty (send null to remove the stored key)' })
    .max(LLM_API_KEY_MAX_LENGTH, { error: `apiKey must be at most ${LLM_API_KEY_MAX_LENGTH} characters` })
    .nullable()
    .optional(),
  /** Calls allowed per UTC day; once reached, entries are vetoed (exits go on) until midnight UTC */
  dailyCallCap: z
    .number({ error: 'dailyCallCap must be a number' })
    .int({ error: 'dailyCallCap must be a whole number' })
    .min(1, { error: 'dailyCallCap must be at least 1' })
    .max(LLM_DAILY_CALL_CAP_MAX, { error: `dailyCallCap must be at most ${LLM_DAILY_CALL_CAP_MAX}` })
    .default(200),
  /** Prompt + completion tokens allowed per UTC day */
  dailyTokenCap: z
    .number({ error: 'dailyTokenCap must be a number' })
    .int({ error: 'dailyTokenCap must be a whole number' })
    .min(100, { error: 'dailyTokenCap must be at least 100' })
    .max(LLM_DAILY_TOKEN_CAP_MAX, { error: `dailyTokenCap must be at most ${LLM_DAILY_TOKEN_CAP_MAX}` })
    .default(400_000),
  /** Longest wait for one answer; past it the entry is vetoed */
  timeoutMs: z
    .number({ error: 'timeoutMs must be a number' })
    .int({ error: 'timeoutMs must be a whole number' })
    .min(LLM_TIMEOUT_MS_MIN, { error: `timeoutMs must be at least ${LLM_TIMEOUT_MS_MIN}` })
    .max(LLM_TIMEOUT_MS_MAX, { error: `timeoutMs must be at most ${LLM_TIMEOUT_MS_MAX}` })
    .default(15_000),
  promptPricePerMillion: pricePerMillion.default(0),
  completionPricePerMillion: pricePerMillion.default(0),
});
export type PutAgentLlmSettings = z.infer<typeof PutAgentLlmSettingsSchema>;
export type PutAgentLlmSettingsInput = z.input<typeof PutAgentLlmSettingsSchema>;

/** The stored settings as the API shows them: the key masked, never in full */
export const AgentLlmSettingsSchema = z.object({
  baseUrl: z.string(),
  model: z.string(),
  /** e.g. `sk-1********abcd`; null when no key is stored */
  apiKeyMasked: z.string().nullable(),
  dailyCallCap: z.number().int(),
  dailyTokenCap: z.number().int(),
  timeoutMs: z.number().int(),
  promptPricePerMillion: z.number(),
  completionPricePerMillion: z.number(),
  updatedAt: z.number().int(),
});
export type AgentLlmSettings = z.infer<typeof AgentLlmSettingsSchema>;

/** Today's use (UTC day) against the caps */
export const AgentLlmUsageSchema = z.object({
  /** `YYYY-MM-DD`, UTC */
  day: z.string(),
  /** Requests sent to the model today (failed ones included: they may have been billed) */
  calls: z.number().int(),
  promptTokens: z.number().int(),
  completionTokens: z.number().int(),
  /** promptTokens + completionTokens, the figure `dailyTokenCap` limits */
  tokens: z.number().int(),
  /** Tokens × the configured prices (0 when no prices are set) */
  spend: z.number(),
  /** Reviews refused today because a cap was reached (each vetoed its entry) */
  capped: z.number().int(),
});
export type AgentLlmUsage = z.infer<typeof AgentLlmUsageSchema>;

/** GET /api/v1/agents/{id}/llm: `settings` null = no LLM (the agent decides alone) */
export const AgentLlmStatusSchema = z.object({
  settings: AgentLlmSettingsSchema.nullable(),
  usage: AgentLlmUsageSchema,
});
export type AgentLlmStatus = z.infer<typeof AgentLlmStatusSchema>;
export const AgentLlmStatusResponseSchema = okResponse(AgentLlmStatusSchema);

export const AGENT_REVIEW_VERDICTS = ['approve', 'reduce', 'veto'] as const;
export const AgentReviewVerdictSchema = z.enum(AGENT_REVIEW_VERDICTS);

/**
 * One review: what was sent to the model and what came back, kept whole (prompts hold market figures and the
 * decision, never keys). `called: false` when nothing was sent (a cap was reached, the key could not be read)
 */
export const AgentLlmExchangeSchema = z.object({
  id: z.string(),
  agentId: z.string(),
  createdAt: z.number().int(),
  /** Open time of the bar whose decision was reviewed */
  barTime: z.number().int().nullable(),
  model: z.string(),
  called: z.boolean(),
  /** The chat request as sent: messages, the tool, temperature, seed */
  request: z.unknown(),
  /** The model's answer as received (the message, or the HTTP error's body); null when none came */
  response: z.unknown(),
  verdict: AgentReviewVerdictSchema,
  sizeMultiplier: z.number(),
  rationale: z.string(),
  citedFeatures: z.array(z.string()),
  /** Why the review counts as a veto (timeout, 429, malformed JSON, unknown tool, cap reached…); null when it worked */
  error: z.string().nullable(),
  latencyMs: z.number().int(),
  promptTokens: z.number().int(),
  completionTokens: z.number().int(),
});
export type AgentLlmExchange = z.infer<typeof AgentLlmExchangeSchema>;

/** GET /api/v1/agents/{id}/llm/exchanges?before&limit: newest first; `before` is an exchange's `createdAt` */
export const AgentLlmExchangesQuerySchema = z.object({
  before: z.coerce
    .number({ error: 'before must be a time in milliseconds' })
    .int({ error: 'before must be a whole number of milliseconds' })
    .min(0, { error: 'before must be at least 0' })
    .optional(),
  limit: countParam('limit', { max: 200, default: 50 }),
});
export type AgentLlmExchangesQuery = z.infer<typeof AgentLlmExchangesQuerySchema>;
export const AgentLlmExchangesResponseSchema = okResponse(z.array(AgentLlmExchangeSchema));
