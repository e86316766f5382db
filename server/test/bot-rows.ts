import { randomUUID } from 'node:crypto';
import type { Queryable } from '../src/lib/database/database';
import { botRepository } from '../src/trading/bots/bot-repository';

type BotInsert = Parameters<typeof botRepository.insert>[1];

/**
 * A bot of `userId` written straight to the database (no request checks, no exchange): a paper grid bot, or an
 * agent on ml-agent, BTCUSDT 1m on testnet with no risk limits, named after its kind and id; `overrides` over that.
 * Its id
 */
export async function insertBotRow(
  db: Queryable,
  userId: string,
  kind: 'bot' | 'agent',
  now: Date,
  overrides: Partial<Omit<BotInsert, 'id' | 'user_id' | 'kind'>> = {},
): Promise<string> {
  const id = randomUUID();
  await botRepository.insert(db, {
    id,
    user_id: userId,
    kind,
    name: `${kind} ${id.slice(0, 4)}`,
    strategy: kind === 'agent' ? 'ml-agent' : 'grid',
    params: {},
    symbol: 'BTCUSDT',
    interval: '1m',
    leverage: 2,
    budget: 1000,
    mode: 'paper',
    risk_limits: { maxNotional: null, dailyLossLimit: null, maxDrawdownPercent: null },
    created_at: now,
    environment: 'testnet',
    ...overrides,
  });
  return id;
}
