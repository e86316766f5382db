import { randomUUID } from 'node:crypto';
import { type AccountEvent, type AccountEventKind, AccountEventKindSchema } from '@kestrel/contracts/account';
import type { Clock } from '../../lib/clock';
import type { Queryable } from '../../lib/database/database';
import type { DomainEvents } from '../../lib/domain-events';
import { type AccountRepository, accountRepository } from './account-repository';

/** Where a change came from, as the audit shows it */
export interface ClientInfo {
  ip: string;
  userAgent: string | undefined;
}

declare module '../../lib/domain-events' {
  interface DomainEventMap {
    /**
     * A sign-in came from a device (user agent) this account never signed in from, published by the audit once the
     * entry is written: the notifications tell the owner. News: a failure never fails the sign-in
     */
    'account.new-device': { userId: string; client: ClientInfo };
  }
}

/**
 * The account's audit: every change to an account leaves an entry its owner reads on /account. Written by the auth
 * service (sign-ins), the account service and the credential routes, all through this one class
 */
export class AccountAudit {
  constructor(
    private readonly db: Queryable,
    private readonly clock: Clock,
    /** Publishes 'account.new-device'; without it sign-ins are not compared with earlier devices */
    private readonly events?: Pick<DomainEvents, 'publish'>,
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
    // A device is its user agent: a sign-in from one never seen on this account's sign-ups and sign-ins is news
    const fromNewDevice =
      kind === 'signin' &&
      this.events !== undefined &&
      !(await this.repo.hasSignedInFrom(db, userId, client?.userAgent?.slice(0, 512) ?? null));
    await this.repo.insertEvent(db, {
      id: randomUUID(),
      user_id: userId,
      kind,
      message,
      ip: client?.ip ?? null,
      user_agent: client?.userAgent?.slice(0, 512) ?? null,
      created_at: this.clock.now(),
    });
    if (fromNewDevice && client) await this.events?.publish('account.new-device', { userId, client });
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
