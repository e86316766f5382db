import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  SIGNAL_WINDOW_MS,
  SIGNALS_PER_MINUTE,
  type SignalBody,
  SignalBodySchema,
  type SignalHook,
  type SignalRecord,
} from '@kestrel/contracts/bots';
import { builtInStrategies, type TradeSignal } from '@kestrel/engine';
import type { Clock } from '../../../lib/clock';
import { open, rewrap, seal } from '../../../lib/crypto/envelope';
import type { Keyring, MasterKey } from '../../../lib/crypto/master-key';
import type { Database, Queryable } from '../../../lib/database/database';
import { HttpError } from '../../../lib/http-error';
import type { BotLog } from '../bot-log';
import { type BotRow, botRepository } from '../bot-repository';
import { findOwnBot } from '../bot-rows';
import {
  type NewSignal,
  type SignalResult,
  type SignalRow,
  signalKey,
  signalRepository,
  toSignalRecord,
} from './signal-repository';
import type { SignalTaken } from './signal-words';

/** Authenticated data of a sealed hook secret: the bytes cannot be moved to another user, bot or hook */
const secretContext = (userId: string, botId: string, hookId: string) =>
  `signal-secret|${userId}|${botId}|${hookId}`;

/** A signal taken by an instance and still pending this long later was left by one that died: taken again */
const SIGNAL_TAKEN_STALE_MS = 60_000;

/** The path alerts post to */
export const signalPath = (hookId: string) => `/api/v1/signals/${hookId}`;

/** What the bot runtime does with a signal: the lifecycle, and the sessions this instance runs */
export interface SignalBots {
  start(userId: string, botId: string): Promise<unknown>;
  stop(userId: string, botId: string): Promise<unknown>;
  /** Whether a session runs the bot on this instance */
  runsHere(botId: string): boolean;
  /** Hands a trade signal to the bot's session here; undefined when no session runs it on this instance */
  signal(botId: string, key: string, signal: TradeSignal): Promise<SignalTaken> | undefined;
  /** Tells the instance running the bot that a signal waits for it */
  wake(botId: string): Promise<void>;
}

export interface SignalServiceDeps {
  db: Database;
  keyring: Keyring;
  clock: Clock;
  log: BotLog;
  bots: SignalBots;
}

/** The answer to a signal's POST: the record, and whether its id was seen before */
export interface SignalAnswer {
  status: 200 | 202;
  signal: SignalRecord;
  duplicate: boolean;
}

/**
 * Signals in (`POST /api/v1/signals/{hookId}`): a charting tool's alert, authenticated by the hook's secret (in the
 * body, or an HMAC of the raw body), refused outside the time window and beyond the rate, acted on once per id.
 * Every signal that reaches a bot's hook is recorded with what it caused, refused ones too, and its bot's log says
 * so; buy, sell and close go to the bot's live session (on whichever instance runs it), start and stop to its
 * lifecycle. The owner makes, replaces and removes the hook and reads the record (`/api/v1/agents/{id}/…`).
 */
export class SignalService {
  /** The delivery of waiting signals in progress here (one at a time: the next round covers what it missed) */
  private delivering: Promise<void> | undefined;

  constructor(private readonly deps: SignalServiceDeps) {}

  async hook(userId: string, botId: string): Promise<SignalHook | null> {
    await findOwnBot(this.deps.db, userId, botId);
    const row = await signalRepository.hookOfBot(this.deps.db, botId);
    return row ? toHook(row.hook_id, row.created_at) : null;
  }

  /** A new hook for the bot, or a new URL and secret for its hook (the old ones stop working at once) */
  async createHook(userId: string, botId: string): Promise<{ hook: SignalHook; secret: string }> {
    const bot = await findOwnBot(this.deps.db, userId, botId);
    const hookId = randomBytes(18).toString('base64url');
    const secret = `ksig_${randomBytes(24).toString('base64url')}`;
    const sealed = seal(
      this.deps.keyring,
      Buffer.from(secret, 'utf8'),
      secretContext(userId, bot.id, hookId),
    );
    const now = this.deps.clock.now();
    await signalRepository.putHook(this.deps.db, {
      bot_id: bot.id,
      user_id: userId,
      hook_id: hookId,
      master_key_id: sealed.masterKeyId,
      wrapped_data_key: sealed.wrappedDataKey,
      ciphertext: sealed.ciphertext,
      created_at: now,
    });
    return { hook: toHook(hookId, now), secret };
  }

  async deleteHook(userId: string, botId: string): Promise<void> {
    await findOwnBot(this.deps.db, userId, botId);
    if (!(await signalRepository.deleteHook(this.deps.db, botId)))
      throw new HttpError(404, 'SIGNAL_HOOK_NOT_FOUND', 'This bot has no signal webhook');
  }

  async list(userId: string, botId: string, limit: number): Promise<SignalRecord[]> {
    await findOwnBot(this.deps.db, userId, botId);
    return (await signalRepository.latest(this.deps.db, botId, limit)).map(toSignalRecord);
  }

  /**
   * One alert's POST: `raw` is its body as sent (what a signature covers), `signature` the header's value. Throws
   * HttpError for a refusal (after recording it, when the hook is known); answers the record otherwise
   */
  async receive(hookId: string, raw: string, signature: string | undefined): Promise<SignalAnswer> {
    const { db, clock } = this.deps;
    const hook = await signalRepository.hookById(db, hookId);
    if (!hook) throw new HttpError(404, 'SIGNAL_HOOK_NOT_FOUND', 'No signal webhook at this URL');
    const bot = await botRepository.find(db, hook.user_id, hook.bot_id);
    if (!bot) throw new HttpError(404, 'SIGNAL_HOOK_NOT_FOUND', 'No signal webhook at this URL');
    const now = clock.now();
    // Counted before anything is read, so a flood costs one query each and writes nothing
    if (
      (await signalRepository.countSince(db, bot.id, new Date(now.getTime() - 60_000))) >= SIGNALS_PER_MINUTE
    )
      throw new HttpError(
        429,
        'SIGNALS_RATE_LIMITED',
        `At most ${SIGNALS_PER_MINUTE} signals a minute reach one bot: this one was not read`,
        { 'retry-after': '60' },
      );

    const refuse = async (
      status: number,
      code: string,
      message: string,
      body?: SignalBody,
    ): Promise<never> => {
      await this.record(bot, untrusted(bot.id, now, message, body));
      throw new HttpError(status, code, message);
    };
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      return refuse(400, 'INVALID_SIGNAL', 'Invalid signal: the body is not JSON');
    }
    const secret = open(
      this.deps.keyring,
      { masterKeyId: hook.master_key_id, wrappedDataKey: hook.wrapped_data_key, ciphertext: hook.ciphertext },
      secretContext(hook.user_id, hook.bot_id, hook.hook_id),
    ).toString('utf8');
    const denied = authenticate(secret, raw, json, signature);
    if (denied) return refuse(401, 'SIGNAL_UNAUTHORIZED', denied);
    const parsed = SignalBodySchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path.join('.') ?? '';
      const why = issue?.code === 'unrecognized_keys' ? issue.message : `${field}: ${issue?.message}`;
      return refuse(400, 'INVALID_SIGNAL', `Invalid signal: ${why}`);
    }
    const body = parsed.data;
    const drift = body.time - now.getTime();
    if (Math.abs(drift) > SIGNAL_WINDOW_MS)
      return refuse(
        400,
        'SIGNAL_STALE',
        `Signal ${body.id} was sent at ${new Date(body.time).toISOString()}, ${Math.round(Math.abs(drift) / 1000)} s ` +
          `${drift < 0 ? 'before' : 'after'} the server's clock: only signals within ${SIGNAL_WINDOW_MS / 60_000} minutes are taken`,
        body,
      );

    const inserted = await signalRepository.insert(db, {
      id: randomUUID(),
      bot_id: bot.id,
      signal_id: body.id,
      action: body.action,
      symbol: body.symbol,
      quantity: body.quantity ?? null,
      price: body.price ?? null,
      received_at: now,
      outcome: 'pending',
      message: 'Received: on its way to the bot',
    });
    if (!inserted) {
      const first = await signalRepository.bySignalId(db, bot.id, body.id);
      if (!first) throw new Error(`signal ${body.id} of bot ${bot.id} vanished`);
      return { status: 200, signal: toSignalRecord(first), duplicate: true };
    }
    const settled = await this.act(bot, inserted);
    if (settled.outcome === 'refused') throw new HttpError(settled.status, settled.code, settled.message);
    return { status: settled.outcome === 'pending' ? 202 : 200, signal: settled.record, duplicate: false };
  }

  /**
   * Signals waiting for bots this instance runs (received by another instance): handed to their sessions now.
   * Called by the bot runner's round and when another instance wakes it
   */
  deliverPending(running: readonly BotRow[]): Promise<void> {
    this.delivering ??= (async () => {
      const byId = new Map(running.map((bot) => [bot.id, bot]));
      const stale = this.staleBefore();
      for (const row of await signalRepository.pendingOf(this.deps.db, [...byId.keys()], stale)) {
        const bot = byId.get(row.bot_id);
        if (bot) await this.act(bot, row, true);
      }
    })().finally(() => {
      this.delivering = undefined;
    });
    return this.delivering;
  }

  /** A signal taken longer ago than this and still pending was left by an instance that died holding it */
  private staleBefore(): Date {
    return new Date(this.deps.clock.now().getTime() - SIGNAL_TAKEN_STALE_MS);
  }

  /** What the signal asks, done: the lifecycle for start and stop, the bot's session for a trade */
  private async act(
    bot: BotRow,
    row: SignalRow,
    here = false,
  ): Promise<
    | { outcome: 'acted' | 'nothing' | 'pending'; record: SignalRecord }
    | { outcome: 'refused'; status: number; code: string; message: string }
  > {
    const refused = async (status: number, code: string, message: string) => {
      await this.settle(bot, row, { outcome: 'refused', message, orders: [] });
      return { outcome: 'refused' as const, status, code, message };
    };
    const action = row.action;
    if (action === 'start' || action === 'stop') {
      try {
        if (action === 'start') await this.deps.bots.start(bot.user_id, bot.id);
        else await this.deps.bots.stop(bot.user_id, bot.id);
      } catch (err) {
        if (err instanceof HttpError) return refused(err.statusCode, err.code, err.message);
        throw err;
      }
      const record = await this.settle(bot, row, {
        outcome: 'acted',
        message: action === 'start' ? 'Started the bot' : 'Stopped the bot',
        orders: [],
      });
      return { outcome: 'acted', record };
    }
    const type = bot.kind === 'bot' ? builtInStrategies.get(bot.strategy) : undefined;
    if (!type?.takesSignals)
      return refused(
        409,
        'SIGNALS_NOT_TAKEN',
        `${bot.name} does not trade on signals (its strategy decides its own orders): only start and stop reach it`,
      );
    if (row.symbol !== bot.symbol)
      return refused(
        400,
        'INVALID_SIGNAL',
        `Invalid signal: symbol: ${bot.name} trades ${bot.symbol}, not ${row.symbol}`,
      );
    if (bot.mode !== 'live')
      return refused(409, 'SIGNALS_NOT_TAKEN', `${bot.name} is a paper bot: signals trade live bots only`);
    if (bot.state !== 'running' && bot.state !== 'starting')
      return refused(
        409,
        'BOT_NOT_RUNNING',
        `${bot.name} is ${bot.state}: start it before it takes ${action} signals`,
      );
    const signal: TradeSignal = {
      action: action as TradeSignal['action'],
      ...(row.quantity === null ? {} : { quantity: row.quantity }),
      ...(row.price === null ? {} : { price: row.price }),
    };
    // Waiting this long (the instance running the bot was away): the market moved on, the signal is not acted on late
    if (here && this.deps.clock.now().getTime() - row.received_at.getTime() > SIGNAL_WINDOW_MS)
      return refused(
        409,
        'SIGNAL_STALE',
        `Not acted on within ${SIGNAL_WINDOW_MS / 60_000} minutes of its arrival (the server running ${bot.name} was away): too late to act on`,
      );
    const runsHere = this.deps.bots.runsHere(bot.id);
    // Taken by one caller only: the round delivering waiting signals must not hand this one over a second time
    if (
      runsHere &&
      !(await signalRepository.take(this.deps.db, row.id, this.deps.clock.now(), this.staleBefore()))
    )
      return { outcome: 'pending', record: toSignalRecord(row) };
    const handed = runsHere ? this.deps.bots.signal(bot.id, signalKey(row.id), signal) : undefined;
    if (!handed) {
      // Another instance runs the bot: it takes the signal from the record at its next round, or at once when woken
      if (!here) await this.deps.bots.wake(bot.id);
      return { outcome: 'pending', record: toSignalRecord(row) };
    }
    const taken = await handed;
    if (taken.outcome === 'refused') return refused(409, 'SIGNAL_REFUSED', taken.message);
    return { outcome: taken.outcome, record: await this.settle(bot, row, taken) };
  }

  /** The outcome written (once: a signal another caller settled first keeps its outcome) and logged on the bot */
  private async settle(bot: BotRow, row: SignalRow, result: SignalResult): Promise<SignalRecord> {
    const settled = await signalRepository.settle(this.deps.db, row.id, result);
    if (settled) await this.logLine(bot, settled);
    return toSignalRecord(settled ?? row);
  }

  private async record(bot: BotRow, row: NewSignal): Promise<void> {
    const inserted = await signalRepository.insert(this.deps.db, row);
    if (inserted) await this.logLine(bot, inserted);
  }

  private async logLine(bot: BotRow, row: SignalRow): Promise<void> {
    // A signal refused before it could be trusted or read names no action: "Signal refused: <why>"
    const what = row.action ? ` ${row.action}${row.symbol ? ` ${row.symbol}` : ''}` : '';
    const verdict = row.outcome === 'refused' ? 'refused' : row.outcome === 'nothing' ? 'taken' : 'acted on';
    await this.deps.log.record(bot, 'signal_received', `Signal${what} ${verdict}: ${row.message}`, {
      signalRecordId: row.id,
      signalId: row.signal_id,
      action: row.action,
      outcome: row.outcome,
      orders: row.orders,
    });
  }
}

/** Re-wraps every hook secret's data key under `to` (`keyring` holds both keys; the master key rotation's transaction) */
export async function rewrapSignalSecrets(tx: Queryable, keyring: Keyring, to: MasterKey): Promise<number> {
  const rows = await signalRepository.lockAllHooks(tx);
  for (const row of rows) {
    const next = rewrap(
      keyring,
      { masterKeyId: row.master_key_id, wrappedDataKey: row.wrapped_data_key, ciphertext: row.ciphertext },
      secretContext(row.user_id, row.bot_id, row.hook_id),
      to,
    );
    await signalRepository.updateWrapping(tx, row.bot_id, next.masterKeyId, next.wrappedDataKey);
  }
  return rows.length;
}

const toHook = (hookId: string, createdAt: Date): SignalHook => ({
  hookId,
  path: signalPath(hookId),
  createdAt: createdAt.getTime(),
});

/** A refused signal's record: no sender id (it could not be trusted, or was too old to be), what it said if read */
function untrusted(botId: string, now: Date, message: string, body?: SignalBody): NewSignal {
  return {
    id: randomUUID(),
    bot_id: botId,
    signal_id: null,
    action: body?.action ?? null,
    symbol: body?.symbol ?? null,
    quantity: body?.quantity ?? null,
    price: body?.price ?? null,
    received_at: now,
    outcome: 'refused',
    message,
  };
}

const equal = (a: string, b: string) => {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * Why the request is not the hook owner's, or undefined when it is: a signature header must be the HMAC-SHA256 of
 * the raw body under the secret (`sha256=<hex>`); without one, the body's `secret` must be the secret
 */
function authenticate(
  secret: string,
  raw: string,
  json: unknown,
  signature: string | undefined,
): string | undefined {
  if (signature !== undefined) {
    const expected = `sha256=${createHmac('sha256', secret).update(raw, 'utf8').digest('hex')}`;
    return equal(signature.trim().toLowerCase(), expected)
      ? undefined
      : 'The signature does not match the body: sign the raw body with the hook’s secret (sha256=<hex>)';
  }
  const given = typeof json === 'object' && json !== null ? (json as { secret?: unknown }).secret : undefined;
  if (typeof given !== 'string')
    return 'The signal carries no secret (a "secret" field, or a signature header)';
  return equal(given, secret) ? undefined : 'The secret does not match this webhook’s';
}
