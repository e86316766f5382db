import { randomUUID } from 'node:crypto';
import type {
  AgentLlmExchange,
  AgentLlmStatus,
  AgentLlmUsage,
  PutAgentLlmSettings,
} from '@kestrel/contracts/agents';
import OpenAI, { APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import { maskApiKey } from '../../../core/credentials/credentials-service';
import {
  type Resolver,
  resolveWebhookTarget,
  systemResolver,
  type WebhookTarget,
} from '../../../core/notifications/webhook-target';
import type { Clock } from '../../../lib/clock';
import { DecryptionError, open, rewrap, seal } from '../../../lib/crypto/envelope';
import type { Keyring, MasterKey } from '../../../lib/crypto/master-key';
import type { Database, Queryable } from '../../../lib/database/database';
import { HttpError } from '../../../lib/http-error';
import { parseReview, reviewRequest } from './llm-prompt';
import { type LlmExchangeRow, type LlmSettingsRow, llmRepository } from './llm-repository';
import { pinnedFetch } from './pinned-fetch';
import type { AgentReview, AgentReviewer, AgentReviewInput } from './reviewer';

const DAY_MS = 86_400_000;

/**
 * Authenticated data of a sealed LLM key: moving the bytes to another user or agent breaks decryption (the vault's
 * envelope, like exchange keys and webhook secrets)
 */
export const llmKeyContext = (userId: string, botId: string) => `agent-llm-key|user=${userId}|agent=${botId}`;

/** Is this agent the caller's? Answers nothing for an unknown or foreign id: it throws the 404 */
export type AgentOwnerCheck = (userId: string, agentId: string) => Promise<void>;

export interface LlmServiceOptions {
  /** KESTREL_LLM_ALLOW_PRIVATE: the base URL may be a private or loopback address (a local Ollama or vLLM) */
  allowPrivate: boolean;
  /** Name resolution for the base URL's address check (the system's by default) */
  resolve?: Resolver;
  /** One line per failed review: the agent and what failed, never the key, prompt or answer */
  onReviewError?: (info: { userId: string; agentId: string; error: string }) => void;
}

/**
 * An agent's LLM reviewer: its settings (the key sealed by the vault, shown masked), today's usage against the caps,
 * the stored exchanges, and `review` itself (the `AgentReviewer` the agent runtime calls for each entry)
 */
export class LlmService implements AgentReviewer {
  private readonly resolve: Resolver;

  constructor(
    private readonly db: Database,
    private readonly keyring: Keyring,
    private readonly clock: Clock,
    private readonly assertAgent: AgentOwnerCheck,
    private readonly options: LlmServiceOptions,
  ) {
    this.resolve = options.resolve ?? systemResolver;
  }

  async status(userId: string, agentId: string): Promise<AgentLlmStatus> {
    await this.assertAgent(userId, agentId);
    const row = await llmRepository.findSettings(this.db, userId, agentId);
    return { settings: row ? toSettingsView(row) : null, usage: await this.usage(agentId, row) };
  }

  async put(userId: string, agentId: string, body: PutAgentLlmSettings): Promise<AgentLlmStatus> {
    await this.assertAgent(userId, agentId);
    await this.checkBaseUrl(body.baseUrl);
    const now = this.clock.now();
    const previous = await llmRepository.findSettings(this.db, userId, agentId);
    let key: Pick<LlmSettingsRow, 'api_key_masked' | 'master_key_id' | 'wrapped_data_key' | 'ciphertext'>;
    if (body.apiKey === undefined) {
      key = {
        api_key_masked: previous?.api_key_masked ?? null,
        master_key_id: previous?.master_key_id ?? null,
        wrapped_data_key: previous?.wrapped_data_key ?? null,
        ciphertext: previous?.ciphertext ?? null,
      };
    } else if (body.apiKey === null) {
      key = { api_key_masked: null, master_key_id: null, wrapped_data_key: null, ciphertext: null };
    } else {
      const sealed = seal(this.keyring, Buffer.from(body.apiKey, 'utf8'), llmKeyContext(userId, agentId));
      key = {
        api_key_masked: maskApiKey(body.apiKey),
        master_key_id: sealed.masterKeyId,
        wrapped_data_key: sealed.wrappedDataKey,
        ciphertext: sealed.ciphertext,
      };
    }
    const row = await llmRepository.upsertSettings(this.db, {
      bot_id: agentId,
      user_id: userId,
      base_url: body.baseUrl,
      model: body.model,
      ...key,
      daily_call_cap: body.dailyCallCap,
      daily_token_cap: body.dailyTokenCap,
      timeout_ms: body.timeoutMs,
      prompt_price_per_million: body.promptPricePerMillion,
      completion_price_per_million: body.completionPricePerMillion,
      created_at: previous?.created_at ?? now,
      updated_at: now,
    });
    return { settings: toSettingsView(row), usage: await this.usage(agentId, row) };
  }

  /** Removes the settings (the agent decides alone again); its past exchanges stay readable */
  async remove(userId: string, agentId: string): Promise<void> {
    await this.assertAgent(userId, agentId);
    if (!(await llmRepository.removeSettings(this.db, userId, agentId)))
      throw new HttpError(404, 'LLM_NOT_CONFIGURED', 'This agent has no LLM reviewer configured');
  }

  async exchanges(
    userId: string,
    agentId: string,
    limit: number,
    before?: number,
  ): Promise<AgentLlmExchange[]> {
    await this.assertAgent(userId, agentId);
    const rows = await llmRepository.listExchanges(
      this.db,
      userId,
      agentId,
      limit,
      before === undefined ? undefined : new Date(before),
    );
    return rows.map(toExchangeView);
  }

  /**
   * Reviews one entry (see `AgentReviewer`). null: no LLM configured, or the decision is not an entry (exits and
   * holds are never reviewed). Every failure is a veto with its reason, stored like a successful review
   */
  async review(input: AgentReviewInput): Promise<AgentReview | null> {
    const { userId, agentId, decision } = input;
    if (decision.action !== 'enter_long' && decision.action !== 'enter_short') return null;
    const settings = await llmRepository.findSettings(this.db, userId, agentId);
    if (!settings) return null;
    const request = reviewRequest(settings.model, decision, input.context);
    const base = {
      id: randomUUID(),
      bot_id: agentId,
      user_id: userId,
      bar_time: decision.barTime,
      model: settings.model,
      request,
    };

    const refusal = await this.capRefusal(agentId, settings);
    if (refusal) return this.record({ ...base, called: false, capped: true }, { error: refusal });

    let apiKey: string | null;
    try {
      apiKey = this.openKey(settings);
    } catch {
      return this.record(
        { ...base, called: false, capped: false },
        { error: 'the stored LLM key could not be read (vault key changed?): save the key again' },
      );
    }
    let target: WebhookTarget;
    try {
      target = await this.checkBaseUrl(settings.base_url);
    } catch (err) {
      const reason = err instanceof HttpError ? err.message : 'baseUrl refused';
      return this.record({ ...base, called: false, capped: false }, { error: reason });
    }

    const client = new OpenAI({
      baseURL: settings.base_url,
      // OpenAI-compatible local servers (Ollama) want the header but ignore its value
      apiKey: apiKey ?? 'none',
      maxRetries: 0,
      timeout: settings.timeout_ms,
      logLevel: 'off',
      fetch: pinnedFetch(target),
    });
    // Latency on the injected clock, like every time here (a test's clock decides what it reads)
    const started = this.clock.now().getTime();
    const elapsed = () => Math.max(0, Math.round(this.clock.now().getTime() - started));
    let completion: ChatCompletion;
    try {
      completion = await client.chat.completions.create(request);
    } catch (err) {
      const latency = elapsed();
      const failure = describeCallFailure(err, settings.timeout_ms);
      return this.record(
        { ...base, called: true, capped: false, response: redact(failure.body, apiKey) },
        { error: redact(failure.error, apiKey) as string, latencyMs: latency },
      );
    }
    const latencyMs = elapsed();
    const tokens = {
      promptTokens: completion.usage?.prompt_tokens ?? 0,
      completionTokens: completion.usage?.completion_tokens ?? 0,
    };
    const message = completion.choices[0]?.message;
    const response = redact(message ?? completion, apiKey);
    const featureIds = new Set(decision.contributions.map((c) => c.id));
    const parsed = parseReview(message, featureIds);
    if (!parsed.ok)
      return this.record(
        { ...base, called: true, capped: false, response },
        { error: parsed.error, latencyMs, ...tokens },
      );
    return this.record(
      { ...base, called: true, capped: false, response },
      {
        error: null,
        latencyMs,
        ...tokens,
        verdict: parsed.verdict,
        sizeMultiplier: parsed.sizeMultiplier,
        rationale: parsed.rationale,
        citedFeatures: parsed.citedFeatures,
      },
    );
  }

  /** Re-wraps every stored LLM key's data key under `to` inside the caller's transaction (vault-key rotation) */
  async rotateMasterKey(tx: Queryable, to: MasterKey): Promise<number> {
    const rows = await llmRepository.lockAllKeys(tx);
    for (const row of rows) {
      if (!row.master_key_id || !row.wrapped_data_key || !row.ciphertext) continue;
      const next = rewrap(
        this.keyring,
        { masterKeyId: row.master_key_id, wrappedDataKey: row.wrapped_data_key, ciphertext: row.ciphertext },
        llmKeyContext(row.user_id, row.bot_id),
        to,
      );
      await llmRepository.updateWrapping(tx, row.bot_id, next.masterKeyId, next.wrappedDataKey);
    }
    return rows.length;
  }

  private startOfDay(): Date {
    const now = this.clock.now().getTime();
    return new Date(now - (now % DAY_MS));
  }

  private async usage(agentId: string, settings: LlmSettingsRow | undefined): Promise<AgentLlmUsage> {
    const start = this.startOfDay();
    const used = await llmRepository.usageSince(this.db, agentId, start);
    const promptPrice = settings?.prompt_price_per_million ?? 0;
    const completionPrice = settings?.completion_price_per_million ?? 0;
    return {
      day: start.toISOString().slice(0, 10),
      calls: used.calls,
      promptTokens: used.prompt_tokens,
      completionTokens: used.completion_tokens,
      tokens: used.prompt_tokens + used.completion_tokens,
      spend: (used.prompt_tokens * promptPrice + used.completion_tokens * completionPrice) / 1_000_000,
      capped: used.capped,
    };
  }

  /**
   * Why no call may be made now, or null. Checked before each call: a call that starts under the token cap may end
   * above it (its size is known only afterwards); the next one is then refused
   */
  private async capRefusal(agentId: string, settings: LlmSettingsRow): Promise<string | null> {
    const used = await llmRepository.usageSince(this.db, agentId, this.startOfDay());
    if (used.calls >= settings.daily_call_cap)
      return `daily call cap reached (${used.calls} of ${settings.daily_call_cap} calls today, UTC)`;
    const tokens = used.prompt_tokens + used.completion_tokens;
    if (tokens >= settings.daily_token_cap)
      return `daily token cap reached (${tokens} of ${settings.daily_token_cap} tokens today, UTC)`;
    return null;
  }

  private openKey(settings: LlmSettingsRow): string | null {
    if (!settings.master_key_id || !settings.wrapped_data_key || !settings.ciphertext) return null;
    const plain = open(
      this.keyring,
      {
        masterKeyId: settings.master_key_id,
        wrappedDataKey: settings.wrapped_data_key,
        ciphertext: settings.ciphertext,
      },
      llmKeyContext(settings.user_id, settings.bot_id),
    );
    if (plain.length === 0) throw new DecryptionError();
    return plain.toString('utf8');
  }

  /** Refuses a base URL on a private, loopback or link-local address unless the operator allows them */
  private async checkBaseUrl(baseUrl: string): Promise<WebhookTarget> {
    try {
      return await resolveWebhookTarget(baseUrl, { allowPrivate: this.options.allowPrivate }, this.resolve);
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      const reason = err.message.replace(/^URL /, 'baseUrl ');
      const hint = this.options.allowPrivate
        ? ''
        : ' (an operator running a local model sets KESTREL_LLM_ALLOW_PRIVATE=1)';
      throw new HttpError(400, 'LLM_URL_REFUSED', `${reason}${hint}`);
    }
  }

  private async record(
    row: Pick<
      LlmExchangeRow,
      'id' | 'bot_id' | 'user_id' | 'bar_time' | 'model' | 'request' | 'called' | 'capped'
    > & {
      response?: unknown;
    },
    outcome: Partial<Omit<AgentReview, 'model' | 'exchangeId'>> & { error: string | null },
  ): Promise<AgentReview> {
    const review: AgentReview = {
      verdict: outcome.error === null ? (outcome.verdict ?? 'veto') : 'veto',
      sizeMultiplier: outcome.error === null ? (outcome.sizeMultiplier ?? 0) : 0,
      rationale: outcome.error === null ? (outcome.rationale ?? '') : `Vetoed: ${outcome.error}`,
      citedFeatures: outcome.error === null ? (outcome.citedFeatures ?? []) : [],
      model: row.called ? row.model : '',
      latencyMs: outcome.latencyMs ?? 0,
      promptTokens: outcome.promptTokens ?? 0,
      completionTokens: outcome.completionTokens ?? 0,
      error: outcome.error,
      exchangeId: row.id,
    };
    await llmRepository.insertExchange(this.db, {
      ...row,
      response: row.response ?? null,
      verdict: review.verdict,
      size_multiplier: review.sizeMultiplier,
      rationale: review.rationale,
      cited_features: review.citedFeatures,
      error: review.error,
      latency_ms: review.latencyMs,
      prompt_tokens: review.promptTokens,
      completion_tokens: review.completionTokens,
      created_at: this.clock.now(),
    });
    if (review.error !== null)
      this.options.onReviewError?.({ userId: row.user_id, agentId: row.bot_id, error: review.error });
    return review;
  }
}

/** What a failed call is recorded as: the reason in words and whatever body the server sent */
function describeCallFailure(err: unknown, timeoutMs: number): { error: string; body: unknown } {
  if (err instanceof APIConnectionTimeoutError || err instanceof APIUserAbortError)
    return { error: `the model did not answer within ${timeoutMs} ms`, body: null };
  if (err instanceof APIError && err.status !== undefined) {
    const what =
      err.status === 429
        ? 'rate limited or out of quota'
        : err.status === 401 || err.status === 403
          ? 'the key was refused'
          : err.status >= 500
            ? 'the model server failed'
            : 'the request was refused';
    return { error: `the model server answered HTTP ${err.status} (${what})`, body: err.error ?? null };
  }
  if (err instanceof APIError) {
    // Our own fetch's or the socket's reason (refused, reset, too large): addresses and sizes, never the key
    const cause = (err as { cause?: { code?: unknown; message?: unknown } }).cause;
    const why =
      typeof cause?.code === 'string' ? cause.code : typeof cause?.message === 'string' ? cause.message : '';
    return {
      error: `the model server could not be reached${why ? ` (${why.slice(0, 200)})` : ''}`,
      body: null,
    };
  }
  if (err instanceof SyntaxError)
    return { error: 'the model server sent an answer that is not JSON', body: null };
  return { error: 'the model server sent an answer Kestrel could not read', body: null };
}

/** Removes the key from anything stored, in case a server echoes it back (a proxy's error page, a debug body) */
function redact(value: unknown, apiKey: string | null): unknown {
  if (!apiKey || value === null || value === undefined) return value;
  const text = JSON.stringify(value);
  if (text === undefined || !text.includes(apiKey)) return value;
  return JSON.parse(text.split(apiKey).join('[redacted]'));
}

function toSettingsView(row: LlmSettingsRow): NonNullable<AgentLlmStatus['settings']> {
  return {
    baseUrl: row.base_url,
    model: row.model,
    apiKeyMasked: row.api_key_masked,
    dailyCallCap: row.daily_call_cap,
    dailyTokenCap: row.daily_token_cap,
    timeoutMs: row.timeout_ms,
    promptPricePerMillion: row.prompt_price_per_million,
    completionPricePerMillion: row.completion_price_per_million,
    updatedAt: row.updated_at.getTime(),
  };
}

function toExchangeView(row: LlmExchangeRow): AgentLlmExchange {
  return {
    id: row.id,
    agentId: row.bot_id,
    createdAt: row.created_at.getTime(),
    barTime: row.bar_time,
    model: row.model,
    called: row.called,
    request: row.request,
    response: row.response,
    verdict: row.verdict,
    sizeMultiplier: row.size_multiplier,
    rationale: row.rationale,
    citedFeatures: row.cited_features,
    error: row.error,
    latencyMs: row.latency_ms,
    promptTokens: row.prompt_tokens,
    completionTokens: row.completion_tokens,
  };
}
