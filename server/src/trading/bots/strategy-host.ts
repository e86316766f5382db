import type { BotKind } from '@kestrel/contracts/bots';
import { builtInStrategies, type StrategyType } from '@kestrel/engine';
import type { Verdict } from '../risk/pre-trade/verdict';
import { type BotRow, botKindOf } from './bot-repository';
import type { BarOutcome, BotBar, PaperFigures } from './bot-step';

/** What a host sees of the bot's account around a traded bar */
export interface StrategyHostBarContext {
  /** The account's figures as they stand (undefined before the account is built) */
  figures: PaperFigures | undefined;
  /** A bar handled before a restart, replayed: what it did is read back, never done again */
  replay: boolean;
}

/**
 * What runs a bot's strategy on each traded bar, given to its `BotSession` at construction: the engine's strategy
 * as it is for grid, DCA and signal bots (`engineStrategyHost`), the agent's decide → review → stage → guard →
 * record for AI agents (`trading/agents/agent-session.ts`).
 *
 * A host places no order itself. The account runs its `type` through the engine's `StrategyDriver` on the one
 * order port every bot has (paper: the simulated broker behind the bot's own limits; live: the live account, each
 * order an order-manager intent keyed by (bot, bar, index)), so an agent's orders take the same path, with the
 * same limits and the same never-sent-twice keys, as every bot's. `beforeBar` and `afterBar` are the async work
 * around a bar that a strategy's synchronous `onBar` cannot do (reading the database, asking a reviewer).
 */
export interface StrategyHost {
  /** The strategy the account runs (its warm-up, its `onBar`) */
  readonly type: StrategyType;
  /** Whose orders these are to the pre-trade pipeline: an agent's carry its rules' verdict, a bot's do not */
  readonly origin: 'bot' | 'agent';
  /**
   * The host's own pre-trade verdicts on the bar being traded (an agent's rules, judged in `beforeBar` on figures
   * only it has), recorded on each order the account sends for that bar, before the bot limits' verdict
   */
  verdicts(): readonly Verdict[];
  /** Before the account trades `bar` */
  beforeBar(bar: BotBar, ctx: StrategyHostBarContext): Promise<void>;
  /** After it: what the account did on the bar (orders, fills, a breach) */
  afterBar(bar: BotBar, outcome: BarOutcome | undefined, ctx: StrategyHostBarContext): Promise<void>;
  /** The session ended (stopped, detached): no bar follows */
  close(): void;
}

/** The host of a bot of one kind, or undefined when the bot is not of that kind */
export type StrategyHostFactory = (row: BotRow) => StrategyHost | undefined;

/**
 * A built-in strategy run as it is, with nothing around its bars; undefined when this server has no strategy of
 * that name (the session then fails to open, saying so)
 */
export function engineStrategyHost(row: Pick<BotRow, 'strategy'>): StrategyHost | undefined {
  const type = builtInStrategies.get(row.strategy);
  if (!type) return undefined;
  return {
    type,
    origin: 'bot',
    verdicts: () => [],
    beforeBar: async () => {},
    afterBar: async () => {},
    close: () => {},
  };
}

/**
 * The bots plugin's port for kinds of bot whose logic lives in another domain: that domain registers its host at
 * construction (the agents plugin, for `agent`), and a session gets its host when it is built. Keyed by kind, so
 * the order hosts register in does not matter and two hosts of one kind are a wiring error, not a silent override
 */
export class StrategyHosts {
  private readonly hosts = new Map<BotKind, (row: BotRow) => StrategyHost>();

  register(kind: BotKind, host: (row: BotRow) => StrategyHost): void {
    if (this.hosts.has(kind)) {
      throw new Error(`A strategy host for bots of kind "${kind}" is already registered`);
    }
    this.hosts.set(kind, host);
  }

  /** The host of `row`: its kind's registered one, else the built-in strategy as it is (undefined when unknown) */
  hostFor(row: BotRow): StrategyHost | undefined {
    return this.hosts.get(botKindOf(row.strategy))?.(row) ?? engineStrategyHost(row);
  }
}
