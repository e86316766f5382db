import { randomUUID } from 'node:crypto';
import { type AccountEvent, type AccountEventKind, AccountEventKindSchema } from '@kestrel/contracts';
import type { Clock } from '../../../lib/clock';
import type { Queryable } from '../../../lib/database/database';
import { type AccountRepository, accountRepository } from './account-repository';

/** Where a change came from, as the audit shows it */
export interface ClientInfo {
  ip: string;
  userAgent: string | undefined;
}

/**
 * The account's audit: every change to an account leaves an entry its owner reads on /account. Written by the auth
 * service (sign-ins), the account service and the credential routes, all through this one class
 */
export class AccountAudit {
  constructor(
    private readonly db: Queryable,
    private readonly clock: Clock,
    private readonly repo: AccountRepository = accountRepository,
  ) {}

  /** Records one entry; `db` lets a caller write it inside its own transaction */
  async record(
    userId: string,
    kind: AccountEventKind,
    message: string,
    client: ClientInfo | undefined,
    db: Queryable = this.db,
  ): Promise<void> {
    await this.repo.insertEvent(db, {
      id: randomUUID(),
      user_id: userId,
      kind,
      message,
      ip: client?.ip ?? null,
      user_agent: client?.userAgent?.slice(0, 512) ?? null,
      created_at: this.clock.now(),
    });
  }

  async list(userId: string, limit: number): Promise<AccountEvent[]> {
    const rows = await this.repo.listEvents(this.db, userId, limit);
    return rows.map((r) => ({
      id: r.id,
      kind: AccountEventKindSchema.parse(r.kind),
      message: r.message,
      ip: r.ip,
      userAgent: r.user_agent,
      createdAt: r.created_at.getTime(),
    }));
  }
}
