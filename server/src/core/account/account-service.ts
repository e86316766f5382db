import type { User } from '@kestrel/contracts';
import {
  type AccountSettings,
  type ChangePasswordRequest,
  DELETE_ACCOUNT_CONFIRMATION,
  STEP_UP_WINDOW_MS,
  type StoredAccountSettings,
} from '@kestrel/contracts/account';
import { BotRiskLimitsSchema } from '@kestrel/contracts/bots';
import type { Clock } from '../../lib/clock';
import type { Database } from '../../lib/database/database';
import type { DomainEvents } from '../../lib/domain-events';
import { HttpError } from '../../lib/http-error';
import type { AuthContext, AuthService } from '../auth/auth-service';
import { hashPassword } from '../auth/password';
import { assertPasswordAcceptable } from '../auth/password-policy';
import type { AccountAudit, ClientInfo } from './account-audit';
import type { AccountRepository } from './account-repository';

declare module '../../lib/domain-events' {
  interface DomainEventMap {
    /**
     * An account is about to be deleted (password and confirmation checked): every domain that acts for the user
     * on the exchange winds down now, while the stored keys are still there (bots stop and cancel their orders).
     * Emitted, so a subscriber's failure stops the deletion
     */
    'account.deleting': { userId: string };
    /** The account's rows are gone: drop what is held in memory for the user (live exchange streams) */
    'account.deleted': { userId: string };
  }
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Profile, password, sessions, step-up, deletion and settings; every change leaves an audit entry */
export class AccountService {
  constructor(
    private readonly db: Database,
    private readonly repo: AccountRepository,
    private readonly auth: AuthService,
    private readonly audit: AccountAudit,
    private readonly clock: Clock,
    private readonly events: DomainEvents,
  ) {}

  async updateProfile(auth: AuthContext, client: ClientInfo, name: string | null): Promise<User> {
    const before = await this.auth.me(auth);
    if (before.name === name) return before;
    await this.repo.updateName(this.db, auth.userId, name);
    await this.audit.record(
      auth.userId,
      'profile',
      name === null ? 'Display name cleared' : `Display name changed to “${name}”`,
      client,
    );
    return { ...before, name };
  }

  /**
   * Checks the current password, stores the new one and ends every other session in one transaction (whoever
   * knew the old password is signed out everywhere else). This session stays, with a fresh step-up
   */
  async changePassword(
    auth: AuthContext,
    client: ClientInfo,
    body: ChangePasswordRequest,
  ): Promise<{ sessionsEnded: number }> {
    const user = await this.auth.confirmPassword(auth, body.current_password);
    assertPasswordAcceptable(body.new_password, user.email);
    const hash = await hashPassword(body.new_password);
    const now = this.clock.now();
    const sessionsEnded = await this.db.transaction(async (tx) => {
      await this.repo.updatePasswordHash(tx, auth.userId, hash);
      const ended = await this.repo.revokeOtherSessions(
        tx,
        auth.userId,
        auth.sessionId,
        'password_changed',
        now,
      );
      await this.repo.setStepUp(tx, auth.sessionId, now);
      await this.audit.record(
        auth.userId,
        'password',
        `Password changed; ${plural(ended, 'other session', 'other sessions')} signed out`,
        client,
        tx,
      );
      return ended;
    });
    await this.auth.sessionsEnded(auth.userId);
    return { sessionsEnded };
  }

  async revokeSession(auth: AuthContext, client: ClientInfo, sessionId: string): Promise<void> {
    await this.auth.revokeSession(auth, sessionId);
    await this.audit.record(auth.userId, 'session_revoked', 'A session was signed out', client);
  }

  async revokeOtherSessions(auth: AuthContext, client: ClientInfo): Promise<{ sessionsEnded: number }> {
    const ended = await this.repo.revokeOtherSessions(
      this.db,
      auth.userId,
      auth.sessionId,
      'revoked_by_user',
      this.clock.now(),
    );
    await this.audit.record(
      auth.userId,
      'sessions_revoked',
      `Signed out everywhere else: ${plural(ended, 'session', 'sessions')} ended`,
      client,
    );
    await this.auth.sessionsEnded(auth.userId);
    return { sessionsEnded: ended };
  }

  /** The password again: guarded actions of this session are allowed for the next 5 minutes */
  async stepUp(auth: AuthContext, client: ClientInfo, password: string): Promise<{ validUntil: number }> {
    try {
      await this.auth.confirmPassword(auth, password);
    } catch (err) {
      if (err instanceof HttpError && err.code === 'WRONG_PASSWORD') {
        await this.audit.record(
          auth.userId,
          'step_up_failed',
          'Wrong password given to confirm an action',
          client,
        );
      }
      throw err;
    }
    const now = this.clock.now();
    await this.repo.setStepUp(this.db, auth.sessionId, now);
    await this.audit.record(auth.userId, 'step_up', 'Password confirmed for sensitive actions', client);
    return { validUntil: now.getTime() + STEP_UP_WINDOW_MS };
  }

  /**
   * Deletes the account: password and the typed confirmation, then `account.deleting` (every bot stopped), then the user row with
   * everything of theirs (stored keys, sessions, bots, history, audit) by cascade. Every session ends with it
   */
  async deleteAccount(auth: AuthContext, password: string, confirmation: string): Promise<void> {
    // The schema already insists; checked again because this is the one action that cannot be undone
    if (confirmation !== DELETE_ACCOUNT_CONFIRMATION) {
      throw new HttpError(400, 'CONFIRMATION_REQUIRED', `Type ${DELETE_ACCOUNT_CONFIRMATION} to confirm`);
    }
    await this.auth.confirmPassword(auth, password);
    await this.events.emit('account.deleting', { userId: auth.userId });
    await this.repo.deleteUser(this.db, auth.userId);
    await this.auth.sessionsEnded(auth.userId);
    await this.events.publish('account.deleted', { userId: auth.userId });
  }

  async settings(userId: string): Promise<StoredAccountSettings> {
    const row = await this.repo.findSettings(this.db, userId);
    if (!row) return { defaultBotRiskLimits: BotRiskLimitsSchema.parse({}), updatedAt: null };
    return {
      defaultBotRiskLimits: BotRiskLimitsSchema.parse(row.default_bot_risk_limits),
      updatedAt: row.updated_at.getTime(),
    };
  }

  async updateSettings(
    auth: AuthContext,
    client: ClientInfo,
    settings: AccountSettings,
  ): Promise<StoredAccountSettings> {
    const now = this.clock.now();
    const l = settings.defaultBotRiskLimits;
    const words = (v: number | null, unit: string) => (v === null ? 'none' : `${v}${unit}`);
    await this.db.transaction(async (tx) => {
      await this.repo.upsertSettings(tx, auth.userId, l, now);
      await this.audit.record(
        auth.userId,
        'settings',
        `Default bot limits set: max notional ${words(l.maxNotional, ' USDT')}, daily loss ${words(
          l.dailyLossLimit,
          ' USDT',
        )}, max drawdown ${words(l.maxDrawdownPercent, ' %')}`,
        client,
        tx,
      );
    });
    return { defaultBotRiskLimits: l, updatedAt: now.getTime() };
  }
}
