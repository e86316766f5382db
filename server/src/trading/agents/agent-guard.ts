/**
 * The agent's order rules are the pre-trade pipeline's `agent_rules` check (`trading/risk/pre-trade/agent-rules.ts`),
 * in the same verdict vocabulary as the account and bot limits; the agent code calls them from here
 */

export {
  AGENT_MAX_ORDERS_PER_MINUTE,
  AGENT_MAX_PRICE_DEVIATION,
  agentVerdict,
  type GuardInput,
  runGuard,
  stageTrades,
  staleAfterMs,
} from '../risk/pre-trade/agent-rules';
export type { Verdict } from '../risk/pre-trade/verdict';
