import type { BotKind } from '@kestrel/contracts/bots';
import { type BotRow, botKindOf } from './bot-repository';
import type { AgentSessionHooks } from './bot-session';

/** Builds the session hooks of one bot of the kind it hosts (the agents' runtime for kind `agent`) */
export type StrategyHost = (row: BotRow) => AgentSessionHooks;

/**
 * The bots plugin's port for kinds of bot whose logic lives in another domain: that domain registers its host at
 * construction (the agents plugin, for `agent`), and a session asks here when it opens. Keyed by kind, so the
 * order hosts register in does not matter and two hosts of one kind are a wiring error, not a silent override
 */
export class StrategyHosts {
  private readonly hosts = new Map<BotKind, StrategyHost>();

  register(kind: BotKind, host: StrategyHost): void {
    if (this.hosts.has(kind)) {
      throw new Error(`A strategy host for bots of kind "${kind}" is already registered`);
    }
    this.hosts.set(kind, host);
  }

  /** The hooks of `row`'s host; undefined for a kind no other domain hosts (built-in strategies) */
  hooksFor(row: BotRow): AgentSessionHooks | undefined {
    return this.hosts.get(botKindOf(row.strategy))?.(row);
  }
}
