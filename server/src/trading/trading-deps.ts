import type { CoreDeps } from '../core/plugin-options';
import type { AgentTrainer } from './agents/agent-training';
import type { OrderTimings } from './orders/order-manager';

/** Parts of the trading floor a caller may supply (tests shorten timings or train agents in-process) */
export interface TradingDeps extends CoreDeps {
  /** AI agents' training and evidence (worker threads by default; tests may run them in-process) */
  agentTrainer?: AgentTrainer;
  /** Period of the bots' lease round (`BOT_LEASE_RENEW_MS` by default; tests make it long and call `tick`) */
  botLeaseRenewMs?: number;
  /** The order manager's windows and intervals (`DEFAULT_ORDER_TIMINGS`; tests shorten them) */
  orderTimings?: Partial<OrderTimings>;
  /** How often waiting TP/SL entries are looked up (`PROTECTION_CHECK_MS` by default) */
  protectionCheckMs?: number;
}
