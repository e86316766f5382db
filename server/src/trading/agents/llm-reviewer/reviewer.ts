/**
 * The optional LLM reviewer of an agent's decisions (issue 18; the ai-agent reference, B1 item 7). The agent runtime
 * calls it after `decideAgent` and before the risk guard. An agent works fully without one: `review` answers null
 * when its owner configured no LLM (the default).
 *
 * The reviewer can only shrink or veto an ENTRY, never enlarge or originate one, and never touches an exit:
 * - The runtime calls `review` only for `enter_long` / `enter_short` decisions. Exits and holds are not reviewed
 *   (a failing or slow LLM must never keep a position open): called for one anyway, it answers null at once.
 * - `sizeMultiplier` is in [0, 1]: the runtime multiplies the decision's `sizeFraction` by it. `veto` → 0 (the
 *   decision becomes a hold, reason "vetoed by the reviewer"), `approve` → 1.
 * - Any failure (timeout, 429/500, malformed JSON, no or an unknown tool call, a daily cap reached, the stored key
 *   unreadable) is a review with `verdict: 'veto'`, `sizeMultiplier: 0` and `error` saying what went wrong: an
 *   entry the reviewer could not look at is not taken. `review` itself does not throw for these.
 * - Every call that reached the model (and every refusal before it, such as a cap) is stored as an exchange
 *   (prompt and reply) whose id is `exchangeId`, readable at GET /api/v1/agents/{id}/llm/exchanges.
 */
import type { AgentDecision } from '@kestrel/engine';

export type AgentReviewVerdict = 'approve' | 'reduce' | 'veto';

export interface AgentReview {
  verdict: AgentReviewVerdict;
  /** 1 for approve, (0, 1) for reduce, 0 for veto */
  sizeMultiplier: number;
  rationale: string;
  /** Feature ids the model cited (filtered to the decision's own features) */
  citedFeatures: string[];
  /** The model name as configured ('' when no call was made, e.g. a cap was reached) */
  model: string;
  latencyMs: number;
  promptTokens: number;
  completionTokens: number;
  /** Set when the call failed (timeout, 429/500, malformed JSON, unknown tool, cap reached): verdict is then veto */
  error: string | null;
  /** The stored prompt/reply record (GET /api/v1/agents/{id}/llm/exchanges) */
  exchangeId: string;
}

export interface AgentReviewInput {
  userId: string;
  agentId: string;
  decision: AgentDecision;
  /**
   * What else the reviewer may see, rendered into the prompt as JSON: the symbol, position, risk state against
   * limits, recent bars… Plain JSON values only; never keys or other secrets.
   */
  context: Record<string, unknown>;
}

export interface AgentReviewer {
  /** null when the agent has no LLM configured (the default): the agent works fully without one */
  review(input: AgentReviewInput): Promise<AgentReview | null>;
}

/** The reviewer of an agent without an LLM, and of tests that do not exercise one */
export const noReviewer: AgentReviewer = {
  review: async () => null,
};
