import { randomUUID } from 'node:crypto';
import {
  BOT_STATES,
  BOTS_PER_USER_MAX,
  type Bot,
  type BotEvent,
  type BotRiskLimits,
  type BotState,
  type BotStatus,
  type BotsSummary,
  type CreateBotRequest,
  type UpdateBotRequest,
} from '@kestrel/contracts/bots';
import { builtInStrategies, EngineInputError, resolveBrokerConfig } from '@kestrel/engine';
import type { FastifyBaseLogger } from 'fastify';
import type { TradingAccount } from '../../core/environment/trading-account';
import type { ExchangeAdapter } from '../../core/exchange/exchange-adapter';
import { exchangeHttpError } from '../../core/exchange/exchange-http-error';
import type { LiveEvent, PushTarget } from '../../core/socket/socket-bus';
import type { Clock } from '../../lib/clock';
import { sleep, startOfUtcDay } from '../../lib/clock';
import type { Database } from '../../lib/database/database';
import type { DomainEvents } from '../../lib/domain-events';
import { HttpError } from '../../lib/http-error';
import { type BotLog, toEvent } from './bot-log';
import {
  accountOfBot,
  type BotRow,
  type BotSettings,
  botKindOf,
  botRepository,
  type HedgeSide,
} from './bot-repository';
import type { BotRunner } from './bot-runner';
import type { PaperFigures } from './bot-step';
import { assertOrdersPass, type PlanReads, planProblems } from './order-plan-check';
import { hedgeModeRefusal, hedgeSideOf, type SymbolOnAccount, symbolSharing } from './symbol-sharing';

/** Only a stopped, errored or paused bot starts; an active one is answered 409 by the runner */
const isIdleState = (state: BotState) => state === 'stopped' || state === 'error' || state === 'paused';

/** States with an open session (its figures not yet in the log) */
const OPEN_SESSION: ReadonlySet<BotState> = new Set(['starting', 'running', 'stopping']);

/** Events of a status answer */
const STATUS_EVENTS = 20;

export const STOPPED_BY_USER = 'Stopped by you';
export const PAUSED_BY_USER = 'Paused by you';
export const RESTARTED_WITH_NEW_SETTINGS = 'Stopped to start again with new settings';

/** What a running bot's settings change with: its name at once, these by a restart */
const RESTARTS_WITH: ReadonlyArray<keyof BotSettings> = ['params', 'leverage', 'budget', 'risk_limits'];
/** …and these only once it is stopped or paused: another market or strategy is another bot's session */
const LOCKED_WHILE_RUNNING = ['strategy', 'symbol', 'interval', 'mode'] as const;
const FIELD_WORDS: Record<keyof BotSettings, string> = {
  name: 'name',
  strategy: 'strategy',
  params: 'parameters',
  symbol: 'symbol',
  interval: 'interval',
  leverage: 'leverage',
  budget: 'budget',
  mode: 'mode',
  risk_limits: 'risk limits',
};

/** How long a restart waits for the instance running the bot elsewhere to finish stopping it */
const RESTART_STOP_WAIT_MS = 20_000;
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

export interface BotServiceDeps {
  db: Database;
  /**
   * The exchange a bot trades on, as its account reads it: its symbol checked where the bot trades, its leverage
   * against the account's brackets there
   */
  market(account: TradingAccount): PlanReads;
  publish(target: PushTarget, event: LiveEvent): Promise<void>;
  /** 'bot.starting' (a veto) before a start, 'bots.halting' / 'bots.halted' around the kill switch's stop */
  events: Pick<DomainEvents, 'emit'>;
  clock: Clock;
  log: FastifyBaseLogger;
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
 * Bots of the signed-in user: settings validated with the strategy's own schema and the exchange's symbol rules,
 * start and stop (the runner takes the lease and runs the bot on this or another instance), status, log and the
 * dashboard's summary. Another user's bot is answered exactly like an unknown one (404)
 */
export class BotService {
  constructor(
    private readonly deps: BotServiceDeps,
    private readonly runner: BotRunner,
    readonly log: BotLog,
  ) {}

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
    const settings = await this.validate({
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
    await this.log.record(row, 'created', `Created: ${describe(row)}`);
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
          `A running bot's ${words(locked)} cannot change: stop or pause it first`,
        );
      }
    } else this.assertNotActive(row, 'change');
    const limits = { ...row.risk_limits };
    for (const [k, v] of Object.entries(request.riskLimits ?? {})) {
      if (v !== undefined) limits[k as keyof BotRiskLimits] = v;
    }
    const strategyChanged = request.strategy !== undefined && request.strategy !== row.strategy;
    const settings = await this.validate({
      account: accountOfBot(row),
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
    await this.log.record(bot, 'updated', `Settings changed: ${describe(bot)}`);
    return toBot(bot);
  }

  /** A running bot's new settings: its name at once, the rest by a restart (see `update`) */
  private async updateRunning(row: BotRow, settings: BotSettings, restart: boolean): Promise<Bot> {
    const changed = (Object.keys(FIELD_WORDS) as Array<keyof BotSettings>).filter(
      (k) => !sameSetting(settings[k], row[k]),
    );
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
        `Changing its ${words(restarting)} restarts the bot: its orders are canceled and laid anew from the ` +
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
      `Settings changed while it ran (${words(restarting)}): ${describe(bot)}; starting again with them`,
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

  async start(userId: string, id: string, options: StartOptions = {}): Promise<Bot> {
    const row = await this.row(userId, id);
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
      throw new HttpError(409, 'BOT_ACTIVE', `This bot is already ${(await this.row(userId, id)).state}`);
    }
    return toBot(started);
  }

  /**
   * Ends the bot's session keeping its orders (a live bot's stand on the exchange and may fill); it places nothing
   * new until it is started again. 409 unless it is running
   */
  async pause(userId: string, id: string): Promise<Bot> {
    const row = await this.row(userId, id);
    const paused =
      row.state === 'running' ? await this.runner.stopBot(row, 'paused', PAUSED_BY_USER) : undefined;
    if (!paused) {
      throw new HttpError(409, 'BOT_NOT_RUNNING', `Only a running bot pauses (this one is ${row.state})`);
    }
    return toBot(paused);
  }

  async stop(userId: string, id: string): Promise<Bot> {
    const row = await this.row(userId, id);
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

  async status(userId: string, id: string): Promise<BotStatus> {
    const row = await this.row(userId, id);
    const now = this.deps.clock.now();
    const past = (
      await botRepository.pastPnl(this.deps.db, [row], new Date(startOfUtcDay(now.getTime())))
    ).get(id);
    const live = (await this.liveFigures([row])).get(id);
    const events = await botRepository.events(this.deps.db, id, STATUS_EVENTS);
    return {
      bot: toBot(row),
      realizedPnl: (past?.total ?? 0) + (live?.realizedPnl ?? 0),
      unrealizedPnl: live?.unrealizedPnl ?? 0,
      todayPnl: (past?.today ?? 0) + (live?.todayPnl ?? 0),
      positionQty: live?.positionQty ?? 0,
      entryPrice: live?.entryPrice ?? null,
      markPrice: live?.markPrice ?? null,
      openOrders: live?.openOrders ?? [],
      uptimeMs:
        OPEN_SESSION.has(row.state) && row.started_at
          ? Math.max(0, now.getTime() - row.started_at.getTime())
          : null,
      lastEvents: events.map(toEvent),
    };
  }

  async events(userId: string, id: string, limit: number, before?: number): Promise<BotEvent[]> {
    await this.row(userId, id);
    return (await botRepository.events(this.deps.db, id, limit, before)).map(toEvent);
  }

  /**
   * Counts by state and mode, and PnL over every bot: finished sessions from the log, open ones from the instance
   * running them (this one's memory, or what another instance last wrote)
   */
  async summary(userId: string): Promise<BotsSummary> {
    const rows = await botRepository.list(this.deps.db, userId);
    const byState = Object.fromEntries(BOT_STATES.map((s) => [s, 0])) as Record<BotState, number>;
    const past = await botRepository.pastPnl(
      this.deps.db,
      rows,
      new Date(startOfUtcDay(this.deps.clock.now().getTime())),
    );
    const summary: BotsSummary = {
      total: rows.length,
      running: 0,
      byState,
      paper: 0,
      live: 0,
      byEnvironment: { testnet: 0, mainnet: 0 },
      realizedPnl: 0,
      unrealizedPnl: 0,
      todayPnl: 0,
      bots: [],
    };
    const live = await this.liveFigures(rows);
    for (const r of rows) {
      byState[r.state]++;
      if (r.state === 'running') summary.running++;
      summary[r.mode]++;
      summary.byEnvironment[r.environment]++;
      const p = past.get(r.id);
      const f = live.get(r.id);
      const line = {
        id: r.id,
        name: r.name,
        symbol: r.symbol,
        mode: r.mode,
        state: r.state,
        environment: r.environment,
        realizedPnl: (p?.total ?? 0) + (f?.realizedPnl ?? 0),
        unrealizedPnl: f?.unrealizedPnl ?? 0,
        todayPnl: (p?.today ?? 0) + (f?.todayPnl ?? 0),
      };
      summary.bots.push(line);
      summary.realizedPnl += line.realizedPnl;
      summary.unrealizedPnl += line.unrealizedPnl;
      summary.todayPnl += line.todayPnl;
    }
    // Running bots are the ones a trader watches; the rest by name so the list does not jump between loads
    summary.bots.sort(
      (a, b) => Number(b.state === 'running') - Number(a.state === 'running') || a.name.localeCompare(b.name),
    );
    return summary;
  }

  /**
   * Figures of the open sessions of these bots: this instance's own (freshest) for the bots it runs, else the ones
   * the running instance last wrote. A bot that is not active has no open session (its PnL is in the log)
   */
  private async liveFigures(rows: readonly BotRow[]): Promise<Map<string, PaperFigures>> {
    const out = new Map<string, PaperFigures>();
    const active = rows.filter((r) => OPEN_SESSION.has(r.state));
    const elsewhere: BotRow[] = [];
    for (const r of active) {
      const mine = this.runner.figures(r.id);
      if (mine) out.set(r.id, mine);
      else elsewhere.push(r);
    }
    const stored = await botRepository.statusOf(this.deps.db, elsewhere);
    for (const [id, { figures }] of stored) out.set(id, figures as unknown as PaperFigures);
    return out;
  }

  private async row(userId: string, id: string): Promise<BotRow> {
    const row = await botRepository.find(this.deps.db, userId, id);
    if (!row) throw new HttpError(404, 'BOT_NOT_FOUND', 'No such bot');
    return row;
  }

  private assertNotActive(row: BotRow, what: 'change' | 'delete'): void {
    if (row.state === 'stopped' || row.state === 'error') return;
    if (row.state === 'paused' && what === 'change') return;
    const why = row.state === 'paused' ? 'paused, its orders standing' : row.state;
    throw new HttpError(409, 'BOT_ACTIVE', `This bot is ${why}: stop it before you ${what} it`);
  }

  /**
   * The settings as they will be stored, or a 400 naming the field and the rule: the strategy's own parameter
   * schema (the bot's leverage replaces the strategy's leverage parameter), the symbol on the exchange, the
   * engine's account rules with the symbol's filters, and the confirmation of a live bot on mainnet
   */
  private async validate(
    input: BotSettings & { confirmLive: boolean | undefined; account: TradingAccount },
  ): Promise<BotSettings> {
    const market = this.deps.market(input.account);
    const environment = input.account.environment;
    const type = builtInStrategies.get(input.strategy);
    if (!type) {
      throw invalid(
        `strategy: unknown strategy "${input.strategy}"; known: ${[...builtInStrategies.keys()].join(', ')}`,
      );
    }
    const raw =
      'leverage' in type.paramsSchema.shape ? { ...input.params, leverage: input.leverage } : input.params;
    let params: Record<string, unknown>;
    try {
      params = type.parseParams(raw);
    } catch (err) {
      if (err instanceof EngineInputError) throw invalid(`params: ${err.message}`);
      throw err;
    }
    let info: Awaited<ReturnType<ExchangeAdapter['symbolInfo']>>;
    try {
      info = await market.symbolInfo(input.symbol);
    } catch (err) {
      throw exchangeHttpError(err);
    }
    if (!info) throw invalid(`symbol: ${input.symbol} is not listed on the exchange`);
    try {
      resolveBrokerConfig({
        broker: {
          initialBalance: input.budget,
          leverage: input.leverage,
          tickSize: Number(info.tickSize),
          stepSize: Number(info.stepSize),
          minNotional: Number(info.minNotional),
        },
      });
    } catch (err) {
      throw invalid((err as Error).message);
    }
    const problems = await planProblems(market, type, params, {
      ...input,
      info,
    });
    if (problems.length > 0) throw invalid(problems.map((p) => p.message).join('; '));
    if (input.mode === 'live' && environment === 'mainnet' && input.confirmLive !== true) {
      throw invalid(
        'confirmLive: a live bot on mainnet trades real money; confirm it (confirmLive: true) to save it',
      );
    }
    return {
      name: input.name,
      strategy: type.id,
      params,
      symbol: input.symbol,
      interval: input.interval,
      leverage: input.leverage,
      budget: input.budget,
      mode: input.mode,
      risk_limits: input.risk_limits,
    };
  }
}

function invalid(message: string): HttpError {
  return new HttpError(400, 'INVALID_BOT', `Invalid bot: ${message}`);
}

/**
 * Whether a setting is unchanged: stored as jsonb, params and limits come back with their keys in another order,
 * and a form's percent field turns 0.07 into 0.07000000000000001, which is no change a restart should follow
 */
function sameSetting(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') {
    return a === b || Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    if (Array.isArray(a) !== Array.isArray(b)) return false;
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    if (ka.length !== kb.length) return false;
    return ka.every((k) => sameSetting((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return a === b;
}

/** "parameters and budget" */
function words(fields: ReadonlyArray<keyof BotSettings>): string {
  const names = fields.map((k) => FIELD_WORDS[k]);
  return names.length < 2 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

function describe(row: BotRow): string {
  return `${row.strategy} on ${row.symbol} ${row.interval}, ${row.leverage}×, budget ${row.budget} USDT, ${row.mode}`;
}

export function toBot(row: BotRow): Bot {
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    strategy: row.strategy,
    params: row.params,
    symbol: row.symbol,
    interval: row.interval as Bot['interval'],
    leverage: row.leverage,
    budget: row.budget,
    mode: row.mode,
    environment: row.environment,
    riskLimits: row.risk_limits,
    state: row.state,
    stopReason: row.stop_reason,
    createdAt: row.created_at.getTime(),
    updatedAt: row.updated_at.getTime(),
    startedAt: row.started_at ? row.started_at.getTime() : null,
    stoppedAt: row.stopped_at ? row.stopped_at.getTime() : null,
  };
}
