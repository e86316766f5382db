import type { Bot } from '@kestrel/contracts/bots';
import { builtInStrategies } from '@kestrel/engine';
import type { TradingAccount } from '../../core/environment/trading-account';
import type { Database } from '../../lib/database/database';
import type { DomainEvents } from '../../lib/domain-events';
import { HttpError } from '../../lib/http-error';
import { accountOfBot, type BotRow, botRepository, type HedgeSide } from './bot-repository';
import { findOwnBot, toBot } from './bot-rows';
import type { BotRunner } from './bot-runner';
import { isIdleState } from './bot-states';
import { assertOrdersPass, type PlanReads } from './order-plan-check';
import { hedgeModeRefusal, hedgeSideOf, type SymbolOnAccount, symbolSharing } from './symbol-sharing';

export const STOPPED_BY_USER = 'Stopped by you';
export const PAUSED_BY_USER = 'Paused by you';
export const STOPPED_BY_KILL_SWITCH = 'Stopped by the kill switch';
export const STOPPED_FOR_ACCOUNT_DELETION = 'Stopped: the account is being deleted';

declare module '../../lib/domain-events' {
  interface DomainEventMap {
    /**
     * A user asked to start a bot (`BotService.start`), before the runner takes its lease: a subscriber that throws
     * (an HttpError saying why) vetoes the start and its error is the caller's answer (a latched agent may not
     * start). Emitted, awaited
     */
    'bot.starting': { row: BotRow };
    /**
     * The kill switch is about to stop these bots (every active bot of the user, read once): whoever runs its own
     * logic inside a bot stands down first (agents latch, so none trades live meanwhile). Emitted, awaited: a throw
     * stops the halt and reaches the kill switch's answer
     */
    'bots.halting': { userId: string; bots: readonly BotRow[] };
    /** The same bots were asked to stop (`stopped` of them were running here and are now): agents demote. Emitted */
    'bots.halted': { userId: string; bots: readonly BotRow[]; stopped: number };
  }
}

export interface BotLifecycleDeps {
  db: Database;
  /**
   * The exchange a bot trades on, as its account reads it: its symbol checked where the bot trades, its leverage
   * against the account's brackets there
   */
  market(account: TradingAccount): PlanReads;
  /** 'bot.starting' (a veto) before a start, 'bots.halting' / 'bots.halted' around the kill switch's stop */
  events: Pick<DomainEvents, 'emit'>;
  /**
   * A live start's look at the symbol on the bot's account: its position mode, position, working orders and the
   * other live bots there
   */
  /** `side`: the side the bot would hold in hedge mode (its other live bots there are counted apart) */
  symbolOnAccount(
    account: TradingAccount,
    symbol: string,
    botId: string,
    side: HedgeSide | undefined,
  ): Promise<SymbolOnAccount>;
}

/** A start's options: `sharePosition` accepts that a live bot trades a symbol the account already trades */
export interface StartOptions {
  sharePosition?: boolean;
}

/**
 * A bot's start, pause and stop as its owner (or the kill switch, or the account's deletion) asks them: a live
 * start checked against the account's symbol and position mode and the symbol's rules, then handed to the runner,
 * which takes the lease and runs the bot on this or another instance
 */
export class BotLifecycle {
  constructor(
    private readonly deps: BotLifecycleDeps,
    private readonly runner: Pick<BotRunner, 'startBot' | 'stopBot'>,
  ) {}

  async start(userId: string, id: string, options: StartOptions = {}): Promise<Bot> {
    const row = await findOwnBot(this.deps.db, userId, id);
    await this.deps.events.emit('bot.starting', { row });
    let shared: string | undefined;
    let positionSide: HedgeSide | undefined;
    if (row.mode === 'live' && isIdleState(row.state)) {
      // Agents go long and short; a built-in strategy says which side its parameters take
      const takes =
        row.kind === 'bot'
          ? (builtInStrategies.get(row.strategy)?.positionSide(row.params) ?? 'both')
          : 'both';
      const side = hedgeSideOf(takes);
      const state = await this.deps.symbolOnAccount(accountOfBot(row), row.symbol, row.id, side);
      if (state.hedgeMode) {
        const refusal = hedgeModeRefusal(takes);
        if (refusal) throw new HttpError(409, 'HEDGE_MODE', refusal);
        positionSide = side;
      }
      shared = symbolSharing(row.symbol, state, positionSide);
    }
    if (shared && options.sharePosition !== true) throw new HttpError(409, 'SYMBOL_SHARED', shared);
    if (isIdleState(row.state)) await assertOrdersPass(this.deps.market(accountOfBot(row)), row);
    // A bot that shares its symbol is not held to the exchange's position; one alone on it is
    const started = await this.runner.startBot(row, {
      sharesSymbol: shared !== undefined,
      ...(positionSide ? { positionSide } : {}),
    });
    if (!started) {
      throw new HttpError(
        409,
        'BOT_ACTIVE',
        `This bot is already ${(await findOwnBot(this.deps.db, userId, id)).state}`,
      );
    }
    return toBot(started);
  }

  /**
   * Ends the bot's session keeping its orders (a live bot's stand on the exchange and may fill); it places nothing
   * new until it is started again. 409 unless it is running
   */
  async pause(userId: string, id: string): Promise<Bot> {
    const row = await findOwnBot(this.deps.db, userId, id);
    const paused =
      row.state === 'running' ? await this.runner.stopBot(row, 'paused', PAUSED_BY_USER) : undefined;
    if (!paused) {
      throw new HttpError(409, 'BOT_NOT_RUNNING', `Only a running bot pauses (this one is ${row.state})`);
    }
    return toBot(paused);
  }

  async stop(userId: string, id: string): Promise<Bot> {
    const row = await findOwnBot(this.deps.db, userId, id);
    const stopped = await this.runner.stopBot(row, 'stopped', STOPPED_BY_USER);
    if (!stopped) {
      throw new HttpError(409, 'BOT_NOT_RUNNING', `This bot is not running (it is ${row.state})`);
    }
    return toBot(stopped);
  }

  /** Stops every active bot of the user with `reason`, each canceling its orders (account deletion); how many */
  async stopAll(userId: string, reason: string): Promise<number> {
    return this.stopEach(await botRepository.activeOf(this.deps.db, userId), reason);
  }

  /**
   * The kill switch's part: every active bot of the user stops, between 'bots.halting' (agents latch first) and
   * 'bots.halted' (agents demote). Says how many it stopped
   */
  async halt(userId: string): Promise<number> {
    const bots = await botRepository.activeOf(this.deps.db, userId);
    await this.deps.events.emit('bots.halting', { userId, bots });
    const stopped = await this.stopEach(bots, STOPPED_BY_KILL_SWITCH);
    await this.deps.events.emit('bots.halted', { userId, bots, stopped });
    return stopped;
  }

  private async stopEach(rows: readonly BotRow[], reason: string): Promise<number> {
    let n = 0;
    for (const row of rows) {
      if (await this.runner.stopBot(row, 'stopped', reason)) n++;
    }
    return n;
  }
}
