import { errors } from '../common/errors';
import { randomAlphanumeric } from '../common/secrets';
import type { Account } from '../matching/types';
import { type Route, requireAccount } from './route';

/** A listenKey stays valid 60 minutes after its last keepalive */
export const LISTEN_KEY_TTL_MS = 60 * 60 * 1000;

interface KeyState {
  key: string;
  accountId: number;
  expiresAt: number;
}

/** listenKeys per account: Binance gives one key per account, and POST returns (and extends) the existing one */
export class ListenKeys {
  readonly #byAccount = new Map<number, KeyState>();
  readonly #byKey = new Map<string, KeyState>();

  open(account: Account, now: number): string {
    const existing = this.#byAccount.get(account.id);
    if (existing && existing.expiresAt > now) {
      existing.expiresAt = now + LISTEN_KEY_TTL_MS;
      return existing.key;
    }
    if (existing) this.#byKey.delete(existing.key);
    const state = { key: randomAlphanumeric(64), accountId: account.id, expiresAt: now + LISTEN_KEY_TTL_MS };
    this.#byAccount.set(account.id, state);
    this.#byKey.set(state.key, state);
    return state.key;
  }

  keepAlive(account: Account, now: number): string {
    const state = this.#byAccount.get(account.id);
    if (!state || state.expiresAt <= now) throw errors.invalidListenKey();
    state.expiresAt = now + LISTEN_KEY_TTL_MS;
    return state.key;
  }

  close(account: Account): string | undefined {
    const state = this.#byAccount.get(account.id);
    if (!state) return undefined;
    this.#byAccount.delete(account.id);
    this.#byKey.delete(state.key);
    return state.key;
  }

  /** The account id a live key belongs to */
  resolve(key: string, now: number): number | undefined {
    const state = this.#byKey.get(key);
    return state && state.expiresAt > now ? state.accountId : undefined;
  }

  /** Keys that expired by `now`, removed and returned so the socket layer can say `listenKeyExpired` */
  expire(now: number): KeyState[] {
    const gone = [...this.#byKey.values()].filter((s) => s.expiresAt <= now);
    for (const s of gone) {
      this.#byKey.delete(s.key);
      this.#byAccount.delete(s.accountId);
    }
    return gone;
  }
}

export function listenKeyRoutes(keys: ListenKeys, onClose: (key: string) => void): Route[] {
  return [
    {
      method: 'POST',
      path: '/fapi/v1/listenKey',
      security: 'USER_STREAM',
      weight: 1,
      handler: (ctx) => ({ listenKey: keys.open(requireAccount(ctx), ctx.now) }),
    },
    {
      method: 'PUT',
      path: '/fapi/v1/listenKey',
      security: 'USER_STREAM',
      weight: 1,
      handler: (ctx) => ({ listenKey: keys.keepAlive(requireAccount(ctx), ctx.now) }),
    },
    {
      method: 'DELETE',
      path: '/fapi/v1/listenKey',
      security: 'USER_STREAM',
      weight: 1,
      handler: (ctx) => {
        const key = keys.close(requireAccount(ctx));
        if (key) onClose(key);
        return {};
      },
    },
  ];
}
