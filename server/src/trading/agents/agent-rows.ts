import { type AgentConfig, parseAgentConfig } from '@kestrel/engine';
import type { Queryable } from '../../lib/database/database';
import { HttpError } from '../../lib/http-error';
import { type BotRow, botKindOf, botRepository } from '../bots/bot-repository';

/** What makes a bot an agent: its strategy (its kind follows it; the strategy is what the runtime runs) */
export const isAgent = (row: Pick<BotRow, 'strategy'>) => botKindOf(row.strategy) === 'agent';

/** The user's agent: another user's bot, an unknown id and a bot that is not an agent are the same 404 */
export async function findAgent(db: Queryable, userId: string, id: string): Promise<BotRow> {
  const row = await botRepository.find(db, userId, id);
  if (!row || !isAgent(row)) throw new HttpError(404, 'AGENT_NOT_FOUND', 'No such agent');
  return row;
}

export function configOf(row: BotRow): AgentConfig {
  return parseAgentConfig(row.params);
}

/** A figure as JSON can carry it (NaN and infinities as null) */
export const finiteOrNull = (v: number | null | undefined) =>
  v === null || v === undefined || !Number.isFinite(v) ? null : v;
