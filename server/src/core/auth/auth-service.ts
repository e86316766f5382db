import { randomUUID } from 'node:crypto';
import type { AuthResponse, Session, SigninRequest, SignupRequest, User } from '@kestrel/contracts';
import type { Clock } from '../../lib/clock';
import type { Database, Queryable } from '../../lib/database/database';
import type { DomainEvents } from '../../lib/domain-events';
import { HttpError } from '../../lib/http-error';
import type { AccountAudit, ClientInfo } from '../account/account-audit';
import type { AuthRepository, SessionRow, UserRow } from './auth-repository';
import type { DpopVerifier } from './dpop';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './password';
import { assertPasswordAcceptable } from './password-policy';
import {
  ACCESS_TOKEN_TTL_S,
  type AccessClaims,
  type DpopBinding,
  hashToken,
  type TokenService,
} from './tokens';

/** Absolute session lifetime: refreshing never extends a session past this */
export const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * Sign-in attempts, counted before the password is checked (so parallel guesses cannot slip past the limit) within a
 * window, per email+IP, per IP, and per account whatever the IP (a spray from many addresses); a right password
 * takes its count back. Past a limit the key is blocked, from 30 s doubling to at most 5 min. Sign-ups are counted
 * per IP over an hour (KESTREL_SIGNUPS_PER_IP_HOUR, 10 by default) and never taken back.
 */
export const THROTTLE = {
  windowMs: 15 * 60 * 1000,
  emailIpLimit: 5,
  ipLimit: 50,
  accountLimit: 20,
  firstBlockMs: 30 * 1000,
  maxBlockMs: 5 * 60 * 1000,
  signupWindowMs: 60 * 60 * 1000,
  /** The default of KESTREL_SIGNUPS_PER_IP_HOUR */
  signupIpLimit: 10,
} as const;

/**
 * A refresh token presented again this soon after it was rotated, with a valid proof of the same browser key, gets
 * the same replacement again instead of ending the session: the answer of a refresh can be lost (a dropped
 * connection, a tab closed mid-call), and two tabs of one browser may race before the cross-tab lock exists in
 * every browser. Short, because a replay past it still ends the session.
 */
export const REFRESH_GRACE_MS = 10_000;

/**
 * The sweep (every SWEEP_INTERVAL_MS on each instance; idempotent): sessions ended (expired or revoked) more than
 * ENDED_SESSION_KEEP_MS ago are deleted with their tokens; used refresh tokens are kept USED_TOKEN_KEEP_MS to spot a
 * replay (which ends the session), then deleted: past that a replayed token is simply invalid, and it would need
 * the browser's key anyway.
 */
export const SWEEP = {
  intervalMs: 10 * 60_000,
  endedSessionKeepMs: 24 * 60 * 60_000,
  usedTokenKeepMs: 24 * 60 * 60_000,
} as const;

/** The DPoP header of an auth call and the method and path the server saw */
export interface DpopInput {
  proof: string | undefined;
  method: string;
  path: string;
}

export const INVALID_CREDENTIALS = 'Invalid email or password';
export const REFRESH_INVALID = 'Refresh token invalid. Please sign in again.';
export const REFRESH_EXPIRED = 'Refresh token expired. Please sign in again.';
export const AUTH_EXPIRED = 'Authentication expired. Please sign in again.';

export type { ClientInfo };

/** One throttle counter: its key and how many attempts a window allows */
interface ThrottleCounter {
  key: string;
  limit: number;
}

/** Who is calling: the user and the session whose access token came with the request */
export type AuthContext = AccessClaims;

/** Lower-cased and trimmed: one account per mailbox, whatever the case typed */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

function toUser(row: UserRow): User {
  return { id: row.id, email: row.email, name: row.name, created_at: row.created_at.toISOString() };
}

const unauthorized = (code: string, message: string) =>
  new HttpError(401, code, message, { 'www-authenticate': 'Bearer' });

declare module '../../lib/domain-events' {
  interface DomainEventMap {
    /**
     * Sessions of the user ended (logout, revocation, password change, refresh-token reuse, account deletion),
     * published by `AuthService.sessionsEnded`: the socket plugin closes their sockets on every instance at once.
     * News: a subscriber's failure is logged and never fails the logout
     */
    'auth.sessions-ended': { userId: string };
    /**
     * Wrong passwords for the account from browsers it has not seen reached the account-wide limit
     * (`THROTTLE.accountLimit` in the window): its owner is told (notifications). News, published once per window
     */
    'auth.signin-failures': { userId: string; failures: number; windowMs: number };
  }
}

/** Rules of sign-up, sign-in, token rotation and sessions; SQL stays in the repository */
export class AuthService {
  constructor(
    private readonly db: Database,
    private readonly repo: AuthRepository,
    private readonly tokens: TokenService,
    private readonly clock: Clock,
    private readonly audit: AccountAudit,
    private readonly dpop: DpopVerifier,
    private readonly limits: { signupsPerIpHour: number } = { signupsPerIpHour: THROTTLE.signupIpLimit },
    /** Publishes 'auth.sessions-ended' */
    private readonly events?: Pick<DomainEvents, 'publish'>,
  ) {}

  async signup(body: SignupRequest, client: ClientInfo, dpop?: DpopInput): Promise<AuthResponse> {
    const binding = await this.bindingKey(dpop);
    // Every sign-up counts, successful or not: it bounds accounts made from one address and email probing
    await this.admit([{ key: `signup-ip:${client.ip}`, limit: this.limits.signupsPerIpHour }], {
      windowMs: THROTTLE.signupWindowMs,
      message: (s) => `Too many accounts created from this address. Try again in ${s} seconds.`,
    });
    assertPasswordAcceptable(body.password, body.email);
    const now = this.clock.now();
    const user: UserRow = {
      id: randomUUID(),
      email: body.email.trim(),
      email_normalized: normalizeEmail(body.email),
      name: body.name ?? null,
      password_hash: await hashPassword(body.password),
      created_at: now,
    };
    // No transaction: a crash between the two statements leaves an account that can simply sign in
    if (!(await this.repo.insertUser(this.db, user))) {
      throw new HttpError(409, 'EMAIL_TAKEN', 'An account with this email already exists');
    }
    const answer = await this.openSession(this.db, user, client, binding, 'Account created');
    await this.audit.record(user.id, 'signup', 'Account created', client);
    return answer;
  }

  async signin(body: SigninRequest, client: ClientInfo, dpop?: DpopInput): Promise<AuthResponse> {
    const binding = await this.bindingKey(dpop);
    const email = normalizeEmail(body.email);
    const user = await this.repo.findUserByEmail(this.db, email);
    // A browser that signed in to this account before (it proves its key) is counted on its own: failures from
    // elsewhere, however many, never lock the owner's own devices out. Its own wrong passwords still are
    const known =
      user !== undefined &&
      binding !== undefined &&
      (await this.repo.isKnownDevice(this.db, user.id, binding.jkt));
    const counters =
      known && binding
        ? [{ key: `email-device:${email}|${binding.jkt}`, limit: THROTTLE.emailIpLimit }]
        : [
            { key: `email-ip:${email}|${client.ip}`, limit: THROTTLE.emailIpLimit },
            { key: `ip:${client.ip}`, limit: THROTTLE.ipLimit },
            { key: `account:${email}`, limit: THROTTLE.accountLimit },
          ];
    const counts = await this.admit(counters, {
      windowMs: THROTTLE.windowMs,
      message: (s) => `Too many failed sign-in attempts. Try again in ${s} seconds.`,
    });

    const ok = user
      ? await verifyPassword(user.password_hash, body.password)
      : await verifyAgainstDummy(body.password);
    if (!user || !ok) {
      await this.blockReached(counters, counts);
      // The attempt that reached the account's limit: the owner hears of it once (later ones are held back)
      const account = counters.findIndex((c) => c.key.startsWith('account:'));
      if (user && account >= 0 && counts[account] === THROTTLE.accountLimit)
        await this.events?.publish('auth.signin-failures', {
          userId: user.id,
          failures: THROTTLE.accountLimit,
          windowMs: THROTTLE.windowMs,
        });
      throw unauthorized('INVALID_CREDENTIALS', INVALID_CREDENTIALS);
    }
    // The right password: its attempt is not a failure. Only the email+IP counter is cleared outright: one good
    // password must not reset a spray across many emails (IP) or from many addresses (account)
    const [emailIp, ...shared] = counters;
    if (emailIp) await this.repo.clearFailures(this.db, emailIp.key);
    for (const counter of shared) await this.repo.uncountAttempt(this.db, counter.key);
    const answer = await this.openSession(this.db, user, client, binding, 'Signed in');
    await this.audit.record(user.id, 'signin', 'Signed in', client);
    return answer;
  }

  /**
   * Checks the signed-in user's password again (step-up, password change, account deletion). Wrong answers are
   * throttled like sign-ins (per user), so a stolen access token cannot be used to guess the password. A wrong
   * password is a 403, not a 401: the session itself is fine and the page must not sign out
   */
  async confirmPassword(auth: AuthContext, password: string): Promise<UserRow> {
    const counter = { key: `password:${auth.userId}`, limit: THROTTLE.emailIpLimit };
    const counts = await this.admit([counter], {
      windowMs: THROTTLE.windowMs,
      message: (s) => `Too many wrong passwords. Try again in ${s} seconds.`,
    });
    const user = await this.repo.findUserById(this.db, auth.userId);
    if (!user) throw unauthorized('SESSION_ENDED', 'Session has ended. Please sign in again.');
    if (!(await verifyPassword(user.password_hash, password))) {
      await this.blockReached([counter], counts);
      throw new HttpError(403, 'WRONG_PASSWORD', 'Password is not correct');
    }
    await this.repo.clearFailures(this.db, counter.key);
    return user;
  }

  /** When this session last gave its password (sign-in, sign-up or step-up); null when never */
  async stepUpAt(sessionId: string): Promise<Date | null> {
    const session = await this.repo.findSession(this.db, sessionId);
    return session?.step_up_at ?? null;
  }

  /**
   * Counts this attempt on every counter before any work is done, then refuses it (429 with Retry-After) when a
   * counter is blocked. Counting first is what makes the limit hold under parallel attempts: each gets its own
   * number, and past the limit only the one probe after an expired block is let through to be checked (see
   * `countAttempt`). Returns each counter's count with this attempt.
   */
  private async admit(
    counters: readonly ThrottleCounter[],
    options: { windowMs: number; message: (seconds: number) => string },
  ): Promise<number[]> {
    const now = this.clock.now();
    const windowStart = new Date(now.getTime() - options.windowMs);
    const probe = randomUUID();
    let blockedUntil = 0;
    const counts: number[] = [];
    for (const counter of counters) {
      const row = await this.repo.countAttempt(
        this.db,
        { key: counter.key, limit: counter.limit, probe, now, windowStart },
        { firstMs: THROTTLE.firstBlockMs, maxMs: THROTTLE.maxBlockMs },
      );
      counts.push(row.failures);
      const until = row.blocked_until?.getTime() ?? 0;
      if (row.probe !== probe && until > now.getTime()) blockedUntil = Math.max(blockedUntil, until);
    }
    if (blockedUntil > now.getTime()) {
      const seconds = Math.max(1, Math.ceil((blockedUntil - now.getTime()) / 1000));
      throw new HttpError(429, 'TOO_MANY_ATTEMPTS', options.message(seconds), {
        'retry-after': String(seconds),
      });
    }
    return counts;
  }

  /**
   * After a wrong password: a counter this attempt brought to its limit is blocked for the next attempt (attempts
   * past the limit blocked their counter already, when they were counted)
   */
  private async blockReached(counters: readonly ThrottleCounter[], counts: readonly number[]): Promise<void> {
    const until = new Date(this.clock.now().getTime() + THROTTLE.firstBlockMs);
    for (const [i, counter] of counters.entries()) {
      if (counts[i] === counter.limit) await this.repo.setBlockedUntil(this.db, counter.key, until);
    }
  }

  /**
   * The browser key a new session's refresh token is bound to, from the sign-in's DPoP proof. No proof: an unbound
   * token, which signs in but can never be refreshed (a browser without WebCrypto, a script). A proof that does not
   * verify is refused with what is wrong, rather than silently handing out a token that cannot refresh
   */
  private async bindingKey(dpop: DpopInput | undefined): Promise<DpopBinding | undefined> {
    if (!dpop?.proof) return undefined;
    const checked = await this.dpop.verify(dpop.proof, { method: dpop.method, path: dpop.path });
    if (!checked.ok) throw new HttpError(400, 'DPOP_INVALID', `DPoP proof refused: ${checked.reason}.`);
    return { jkt: checked.jkt, skewS: checked.skewS };
  }

  private async openSession(
    db: Queryable,
    user: UserRow,
    client: ClientInfo,
    binding: DpopBinding | undefined,
    message: string,
  ): Promise<AuthResponse> {
    const now = this.clock.now();
    const session = {
      id: randomUUID(),
      user_id: user.id,
      created_at: now,
      last_used_at: now,
      expires_at: new Date(now.getTime() + SESSION_LIFETIME_MS),
      user_agent: client.userAgent?.slice(0, 512) ?? null,
      ip: client.ip,
      // The password was just given: guarded actions need no second prompt for the next few minutes
      step_up_at: now,
    };
    const refreshToken = await this.tokens.issueRefreshToken(session.id, session.expires_at, binding);
    await this.repo.insertSessionWithToken(db, session, hashToken(refreshToken));
    // The browser's key is known to the account from now on (see `signin`)
    if (binding) await this.repo.rememberDevice(db, user.id, binding.jkt, now);
    return this.answer(user, session.id, refreshToken, message);
  }

  private async answer(
    user: UserRow,
    sessionId: string,
    refreshToken: string,
    message: string,
  ): Promise<AuthResponse> {
    return {
      success: true,
      access_token: await this.tokens.issueAccessToken({ userId: user.id, sessionId }),
      refresh_token: refreshToken,
      token_type: 'bearer',
      expires_in: ACCESS_TOKEN_TTL_S,
      user: toUser(user),
      message,
    };
  }

  /**
   * Rotates a refresh token. The token must be bound to a browser key and come with a fresh DPoP proof signed by
   * that key (checked before the token is spent, so a stolen copy without the key is refused and the real session
   * is left alone). A token presented twice means it leaked or a client raced itself: within REFRESH_GRACE_MS of
   * its rotation the same replacement is answered again, later the whole session is ended, so whoever holds the
   * newer token is signed out too.
   */
  async refresh(refreshToken: string, dpop: DpopInput): Promise<AuthResponse> {
    const verified = await this.tokens.verifyRefreshToken(refreshToken);
    if (!verified.ok) {
      throw unauthorized(
        verified.reason === 'expired' ? 'REFRESH_EXPIRED' : 'REFRESH_INVALID',
        verified.reason === 'expired' ? REFRESH_EXPIRED : REFRESH_INVALID,
      );
    }
    const { sessionId, tokenHash, binding } = verified.claims;
    // Tokens issued before refresh tokens were bound (or to a client that sent no proof at sign-in) are refused:
    // a copy of one would work from anywhere. Their sessions' access tokens still work until they expire
    if (binding === undefined) {
      throw unauthorized(
        'REFRESH_UNBOUND',
        'This refresh token is not bound to a browser key, so it cannot be refreshed. Please sign in again.',
      );
    }
    const proof = await this.dpop.verify(dpop.proof, {
      method: dpop.method,
      path: dpop.path,
      bound: binding,
    });
    if (!proof.ok) {
      throw unauthorized(
        'DPOP_INVALID',
        `Refresh refused: it needs a DPoP proof from the browser that signed in (${proof.reason}). Please sign in again.`,
      );
    }
    const now = this.clock.now();
    const outcome = await this.db.transaction(async (tx) => {
      const consumedFor = await this.repo.consumeRefreshToken(tx, tokenHash, now);
      if (consumedFor === undefined) {
        const known = await this.repo.findRefreshToken(tx, tokenHash);
        if (!known) return { kind: 'invalid' as const };
        const session = await this.repo.findSession(tx, known.session_id);
        if (!session) return { kind: 'invalid' as const };
        const again = await this.replacementInGrace(tx, tokenHash, known.used_at, session, binding, now);
        if (again) return again;
        await this.repo.revokeSession(tx, session.id, session.user_id, 'refresh_token_reuse', now);
        return { kind: 'reused' as const, userId: session.user_id };
      }
      const session = await this.repo.findSession(tx, consumedFor);
      if (!session || consumedFor !== sessionId || !isLive(session, now)) return { kind: 'invalid' as const };
      const user = await this.repo.findUserById(tx, session.user_id);
      if (!user) return { kind: 'invalid' as const };
      const next = await this.tokens.successorToken(
        tokenHash,
        { id: session.id, expiresAt: session.expires_at, binding },
        now,
      );
      await this.repo.insertRefreshToken(tx, hashToken(next), session.id, now);
      await this.repo.touchSession(tx, session.id, now);
      return { kind: 'ok' as const, user, session, next };
    });
    if (outcome.kind === 'reused') {
      if (outcome.userId) await this.sessionsEnded(outcome.userId);
      throw unauthorized(
        'REFRESH_REUSED',
        'Refresh token was already used, so this session has been ended for safety. Please sign in again.',
      );
    }
    if (outcome.kind === 'invalid') throw unauthorized('REFRESH_INVALID', REFRESH_INVALID);
    return this.answer(outcome.user, outcome.session.id, outcome.next, 'Token refreshed');
  }

  /**
   * The replacement of a token used within the grace window, recomputed (it is deterministic), provided the
   * session is live and the replacement itself is still unused; otherwise undefined (a replay)
   */
  private async replacementInGrace(
    tx: Queryable,
    tokenHash: Buffer,
    usedAt: Date | null,
    session: SessionRow,
    binding: DpopBinding,
    now: Date,
  ): Promise<{ kind: 'ok'; user: UserRow; session: SessionRow; next: string } | undefined> {
    if (!usedAt || now.getTime() - usedAt.getTime() > REFRESH_GRACE_MS || !isLive(session, now))
      return undefined;
    const next = await this.tokens.successorToken(
      tokenHash,
      { id: session.id, expiresAt: session.expires_at, binding },
      usedAt,
    );
    const replacement = await this.repo.findRefreshToken(tx, hashToken(next));
    if (!replacement || replacement.used_at !== null || replacement.session_id !== session.id)
      return undefined;
    const user = await this.repo.findUserById(tx, session.user_id);
    return user ? { kind: 'ok', user, session, next } : undefined;
  }

  /** One pass of the sweep (see SWEEP); answers what it deleted */
  async sweep(): Promise<{ sessions: number; refreshTokens: number; proofs: number }> {
    const now = this.clock.now().getTime();
    const deleted = await this.repo.deleteSpent(this.db, {
      endedBefore: new Date(now - SWEEP.endedSessionKeepMs),
      usedBefore: new Date(now - SWEEP.usedTokenKeepMs),
    });
    return { ...deleted, proofs: this.dpop.forget() };
  }

  /** Checks a bearer token and that its session is still live, so revocation bites before the token expires */
  async authenticate(authorization: string | undefined): Promise<AuthContext> {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    if (!match?.[1]) {
      throw unauthorized(
        'NOT_AUTHENTICATED',
        'Not authenticated: send an "Authorization: Bearer <access token>" header',
      );
    }
    const verified = await this.tokens.verifyAccessToken(match[1]);
    if (!verified.ok) {
      throw verified.reason === 'expired'
        ? unauthorized('TOKEN_EXPIRED', AUTH_EXPIRED)
        : unauthorized('TOKEN_INVALID', 'Access token is invalid. Please sign in again.');
    }
    const session = await this.repo.findSession(this.db, verified.claims.sessionId);
    if (!session || session.user_id !== verified.claims.userId || !isLive(session, this.clock.now())) {
      throw unauthorized('SESSION_ENDED', 'Session has ended. Please sign in again.');
    }
    return verified.claims;
  }

  async me(auth: AuthContext): Promise<User> {
    const user = await this.repo.findUserById(this.db, auth.userId);
    if (!user) throw unauthorized('SESSION_ENDED', 'Session has ended. Please sign in again.');
    return toUser(user);
  }

  /** Tells whoever must hear at once that sessions of the user ended ('auth.sessions-ended') */
  async sessionsEnded(userId: string): Promise<void> {
    await this.events?.publish('auth.sessions-ended', { userId });
  }

  async logout(auth: AuthContext): Promise<void> {
    await this.repo.revokeSession(this.db, auth.sessionId, auth.userId, 'logout', this.clock.now());
    await this.sessionsEnded(auth.userId);
  }

  async listSessions(auth: AuthContext): Promise<Session[]> {
    const rows = await this.repo.listLiveSessions(this.db, auth.userId, this.clock.now());
    return rows.map((s) => ({
      id: s.id,
      created_at: s.created_at.toISOString(),
      last_used_at: s.last_used_at.toISOString(),
      expires_at: s.expires_at.toISOString(),
      user_agent: s.user_agent,
      ip: s.ip,
      current: s.id === auth.sessionId,
    }));
  }

  /** Which of these sessions are still live now (open sockets are re-checked against their sessions with it) */
  async liveSessionIds(sessionIds: readonly string[]): Promise<ReadonlySet<string>> {
    if (sessionIds.length === 0) return new Set();
    return new Set(await this.repo.liveSessionIds(this.db, sessionIds, this.clock.now()));
  }

  /** Another user's session answers exactly like a missing one, so ids cannot be probed */
  async revokeSession(auth: AuthContext, sessionId: string): Promise<void> {
    const done = await this.repo.revokeSession(
      this.db,
      sessionId,
      auth.userId,
      'revoked_by_user',
      this.clock.now(),
    );
    if (!done) throw new HttpError(404, 'SESSION_NOT_FOUND', 'Session not found (or already ended)');
    await this.sessionsEnded(auth.userId);
  }
}

function isLive(session: SessionRow, now: Date): boolean {
  return session.revoked_at === null && session.expires_at.getTime() > now.getTime();
}
