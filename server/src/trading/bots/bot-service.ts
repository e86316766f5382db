import { randomUUID } from 'node:crypto';
import {
  BOTS_PER_USER_MAX,
  type Bot,
  type BotEvent,
  type BotRiskLimits,
  type BotStatus,
  type BotsSummary,
  type CreateBotRequest,
  type UpdateBotRequest,
} from '@kestrel/contracts/bots';
import type { FastifyBaseLogger } from 'fastify';
import type { TradingAccount } from '../../core/environment/trading-account';
import type { LiveEvent, PushTarget } from '../../core/socket/socket-bus';
import type { Clock } from '../../lib/clock';
import { sleep } from '../../lib/clock';
import { HttpError } from '../../lib/http-error';
import { botEventRepository } from './bot-event-repository';
import { BotFigures } from './bot-figures';
import { BotLifecycle, type BotLifecycleDeps, type StartOptions } from './bot-lifecycle';
import { type BotLog, toEvent } from './bot-log';
import { accountOfBot, type BotRow, type BotSettings, botKindOf, botRepository } from './bot-repository';
import { findOwnBot, toBot } from './bot-rows';
import type { BotRunner } from './bot-runner';
import {
  changedSettings,
  describeBot,
  LOCKED_WHILE_RUNNING,
  RESTARTS_WITH,
  settingWords,
  validateBotSettings,
} from './bot-settings';

export const RESTARTED_WITH_NEW_SETTINGS = 'Stopped to start again with new settings';

/** How long a restart waits for the instance running the bot elsewhere to finish stopping it */
const RESTART_STOP_WAIT_MS = 20_000;

export interface BotServiceDeps extends BotLifecycleDeps {
  publish(target: PushTarget, event: LiveEvent): Promise<void>;
  clock: Clock;
  log: FastifyBaseLogger;
}

/**
 * Bots of the signed-in user: settings validated with the strategy's own schema and the exchange's symbol rules
 * (`bot-settings.ts`), start and stop (`bot-lifecycle.ts`: the runner takes the lease and runs the bot on this or
 * another instance), status and the dashboard's summary (`bot-figures.ts`), and the log. Another user's bot is
 * answered exactly like an unknown one (404)
 */
export class BotService {
  private readonly lifecycle: BotLifecycle;
  private readonly figures: BotFigures;

  constructor(
    private readonly deps: BotServiceDeps,
    private readonly runner: BotRunner,
    readonly log: BotLog,
  ) {
    this.lifecycle = new BotLifecycle(deps, runner);
    this.figures = new BotFigures(deps, runner);
  }

  /**
   * A new bot of the account: it trades on the account's environment (its owner's current one, resolved by the
   * request) for good; a live bot on mainnet needs confirmLive
   */
  async create(account: TradingAccount, request: CreateBotRequest): Promise<Bot> {
    const { userId, environment } = account;
    if ((await botRepository.count(this.deps.db, userId)) >= BOTS_PER_USER_MAX) {
      throw new HttpError(
        409,
        'BOT_LIMIT',
        `You have ${BOTS_PER_USER_MAX} bots, the most one user may keep: delete one first`,
      );
    }
    const settings = await validateBotSettings(this.deps.market(account), {
      account,
      name: request.name,
      strategy: request.strategy,
      params: request.params,
      symbol: request.symbol,
      interval: request.interval,
      leverage: request.leverage,
      budget: request.budget,
      mode: request.mode,
      risk_limits: request.riskLimits,
      confirmLive: request.confirmLive,
    });
    const row = await botRepository.insert(this.deps.db, {
      ...settings,
      id: randomUUID(),
      user_id: userId,
      kind: botKindOf(settings.strategy),
      environment,
      created_at: this.deps.clock.now(),
    });
    await this.log.record(row, 'created', `Created: ${describeBot(row)}`);
    return toBot(row);
  }

  async list(userId: string): Promise<Bot[]> {
    return (await botRepository.list(this.deps.db, userId)).map(toBot);
  }

  async get(userId: string, id: string): Promise<Bot> {
    return toBot(await this.row(userId, id));
  }

  /**
   * New settings. A stopped, errored or paused bot takes them as they are; a running one its new name at once, and
   * its parameters, leverage, budget and risk limits by a restart (`request.restart`, else 409 `RESTART_NEEDED`
   * naming them): its session ends (orders canceled), the settings are saved, it starts again from the price now.
   * Its strategy, symbol, interval and mode change only once it is stopped or paused (409 `BOT_ACTIVE`)
   */
  async update(userId: string, id: string, request: UpdateBotRequest): Promise<Bot> {
    const row = await this.row(userId, id);
    if (row.state === 'running') {
      // Asked before the settings are checked: a symbol the bot cannot move to is not the first thing to say
      const locked = LOCKED_WHILE_RUNNING.filter((k) => request[k] !== undefined && request[k] !== row[k]);
      if (locked.length > 0) {
        throw new HttpError(
          409,
          'BOT_ACTIVE',
          `A running bot's ${settingWords(locked)} cannot change: stop or pause it first`,
        );
      }
    } else this.assertNotActive(row, 'change');
    const limits = { ...row.risk_limits };
    for (const [k, v] of Object.entries(request.riskLimits ?? {})) {
      if (v !== undefined) limits[k as keyof BotRiskLimits] = v;
    }
    const strategyChanged = request.strategy !== undefined && request.strategy !== row.strategy;
    const account = accountOfBot(row);
    const settings = await validateBotSettings(this.deps.market(account), {
      account,
      name: request.name ?? row.name,
      strategy: request.strategy ?? row.strategy,
      // A new strategy starts from its own defaults, not from the old strategy's parameters
      params: request.params ?? (strategyChanged ? {} : row.params),
      symbol: request.symbol ?? row.symbol,
      interval: request.interval ?? (row.interval as CreateBotRequest['interval']),
      leverage: request.leverage ?? row.leverage,
      budget: request.budget ?? row.budget,
      mode: request.mode ?? row.mode,
      risk_limits: limits,
      confirmLive: request.confirmLive,
    });
    if (row.state === 'running') return this.updateRunning(row, settings, request.restart === true);
    const updated = await botRepository.update(this.deps.db, userId, id, settings, this.deps.clock.now());
    if (!updated) this.assertNotActive(await this.row(userId, id), 'change');
    const bot = updated ?? (await this.row(userId, id));
    await this.log.record(bot, 'updated', `Settings changed: ${describeBot(bot)}`);
    return toBot(bot);
  }

  /** A running bot's new settings: its name at once, the rest by a restart (see `update`) */
  private async updateRunning(row: BotRow, settings: BotSettings, restart: boolean): Promise<Bot> {
    const changed = changedSettings(row, settings);
    const restarting = changed.filter((k) => RESTARTS_WITH.includes(k));
    const now = this.deps.clock.now();
    if (restarting.length === 0) {
      if (!changed.includes('name')) return toBot(row);
      const renamed = await botRepository.rename(this.deps.db, row.user_id, row.id, settings.name, now);
      if (!renamed) throw new HttpError(404, 'BOT_NOT_FOUND', 'No such bot');
      await this.log.record(renamed, 'updated', `Renamed “${settings.name}” (was “${row.name}”)`);
      return toBot(renamed);
    }
    if (!restart) {
      throw new HttpError(
        409,
        'RESTART_NEEDED',
        `Changing its ${settingWords(restarting)} restarts the bot: its orders are canceled and laid anew from the ` +
          'price now. Send restart: true to do so',
      );
    }
    const stopping = await this.runner.stopBot(row, 'stopped', RESTARTED_WITH_NEW_SETTINGS);
    if (!stopping) throw new HttpError(409, 'BOT_NOT_RUNNING', 'This bot is no longer running');
    await this.untilResting(row);
    const saved = await botRepository.update(this.deps.db, row.user_id, row.id, settings, now);
    if (!saved) this.assertNotActive(await this.row(row.user_id, row.id), 'change');
    const bot = saved ?? (await this.row(row.user_id, row.id));
    await this.log.record(
      bot,
      'updated',
      `Settings changed while it ran (${settingWords(restarting)}): ${describeBot(bot)}; starting again with them`,
    );
    try {
      // Its own position, if it holds one, stays open on the exchange: the new session counts from its own fills
      return await this.start(row.user_id, row.id, { sharePosition: true });
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      throw new HttpError(
        err.statusCode,
        err.code,
        `The new settings are saved and the bot stopped, but it did not start again: ${err.message}`,
      );
    }
  }

  /** Waits for a bot stopping on another instance to rest (its orders canceled there) */
  private async untilResting(row: BotRow): Promise<void> {
    const { clock } = this.deps;
    const deadline = clock.now().getTime() + RESTART_STOP_WAIT_MS;
    for (;;) {
      const now = await this.row(row.user_id, row.id);
      if (now.state !== 'stopping') return;
      if (clock.now().getTime() > deadline) {
        throw new HttpError(
          503,
          'BOT_STOPPING',
          'The bot is still being stopped on another server: its new settings are not saved; try again',
        );
      }
      await sleep(clock, 200);
    }
  }

  async delete(userId: string, id: string): Promise<void> {
    if (await botRepository.delete(this.deps.db, userId, id)) return;
    this.assertNotActive(await this.row(userId, id), 'delete');
  }

  /** A copy of the user's bot, made on `account` (the owner's current environment, as a new bot is) */
  async clone(account: TradingAccount, id: string, name: string | undefined): Promise<Bot> {
    const row = await this.row(account.userId, id);
    return this.create(account, {
      name: name ?? `${row.name} (copy)`.slice(0, 64),
      strategy: row.strategy,
      params: row.params,
      symbol: row.symbol,
      interval: row.interval as CreateBotRequest['interval'],
      leverage: row.leverage,
      budget: row.budget,
      mode: row.mode,
      riskLimits: row.risk_limits,
      // The source was confirmed when it was made live; the copy keeps its settings
      confirmLive: true,
    });
  }

  start(userId: string, id: string, options: StartOptions = {}): Promise<Bot> {
    return this.lifecycle.start(userId, id, options);
  }

  /** See `BotLifecycle.pause`: the session ends, its orders stand; 409 unless it is running */
  pause(userId: string, id: string): Promise<Bot> {
    return this.lifecycle.pause(userId, id);
  }

  stop(userId: string, id: string): Promise<Bot> {
    return this.lifecycle.stop(userId, id);
  }

  /** Stops every active bot of the user with `reason`, each canceling its orders (account deletion); how many */
  stopAll(userId: string, reason: string): Promise<number> {
    return this.lifecycle.stopAll(userId, reason);
  }

  /** The kill switch's part: every active bot of the user stops (see `BotLifecycle.halt`); how many */
  halt(userId: string): Promise<number> {
    return this.lifecycle.halt(userId);
  }

  status(userId: string, id: string): Promise<BotStatus> {
    return this.figures.status(userId, id);
  }

  async events(userId: string, id: string, limit: number, before?: number): Promise<BotEvent[]> {
    await this.row(userId, id);
    return (await botEventRepository.events(this.deps.db, id, limit, before)).map(toEvent);
  }

  /** Counts by state and mode, and PnL over every bot (see `BotFigures.summary`) */
  summary(userId: string): Promise<BotsSummary> {
    return this.figures.summary(userId);
  }

  private row(userId: string, id: string): Promise<BotRow> {
    return findOwnBot(this.deps.db, userId, id);
  }

  private assertNotActive(row: BotRow, what: 'change' | 'delete'): void {
    if (row.state === 'stopped' || row.state === 'error') return;
    if (row.state === 'paused' && what === 'change') return;
    const why = row.state === 'paused' ? 'paused, its orders standing' : row.state;
    throw new HttpError(409, 'BOT_ACTIVE', `This bot is ${why}: stop it before you ${what} it`);
  }
}
