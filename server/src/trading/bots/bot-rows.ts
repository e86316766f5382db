import type { Bot } from '@kestrel/contracts/bots';
import type { Queryable } from '../../lib/database/database';
import { HttpError } from '../../lib/http-error';
import { type BotRow, botRepository } from './bot-repository';

/** The user's bot: another user's bot is the same 404 as an unknown id */
export async function findOwnBot(db: Queryable, userId: string, id: string): Promise<BotRow> {
  const row = await botRepository.find(db, userId, id);
  if (!row) throw new HttpError(404, 'BOT_NOT_FOUND', 'No such bot');
  return row;
}

/** A bot's row as the API answers it */
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
