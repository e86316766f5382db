import type { AccountTestResult } from '@kestrel/contracts';
import {
  ExchangeBusyError,
  type ExchangeCredentials,
  type ExchangeProbe,
  ExchangeRejectedError,
  ExchangeUnreachableError,
} from '../credentials/exchange-probe';
import { isOpenPosition } from './account-figures';
import {
  type ExchangeAdapter,
  ExchangeApiError,
  ExchangeRateLimitError,
  ExchangeResponseError,
  ExchangeUnavailableError,
} from './exchange-adapter';

export const WITHDRAW_ENABLED_REASON =
  'this API key can withdraw funds. Kestrel refuses such keys: create a key without "Enable Withdrawals" ' +
  '(reading and futures trading are enough)';

/** Binance's codes for refused keys, in words a user can act on */
function rejection(err: ExchangeApiError): ExchangeRejectedError {
  switch (err.code) {
    case -2015:
      return new ExchangeRejectedError(
        `the API key is unknown to Binance, or not allowed from this IP or for futures (${err.message})`,
      );
    case -1022:
      return new ExchangeRejectedError(
        `the secret key does not match the API key: Binance rejected the signature (${err.message})`,
      );
    case -2014:
      return new ExchangeRejectedError(`the API key is malformed (${err.message})`);
    default:
      return new ExchangeRejectedError(err.message);
  }
}

/**
 * The credentials seam backed by the adapter: the keys must sign, read the futures account, and must not be able
 * to withdraw. Checked in that order of questions: permissions first, so a withdraw-enabled key is refused before
 * anything else is read with it.
 */
export function adapterProbe(adapter: ExchangeAdapter): ExchangeProbe {
  return {
    async testAccount(_exchange, credentials: ExchangeCredentials): Promise<AccountTestResult> {
      // The key's environment picks the host it is sent to (the exchange router): never another environment's
      const keys = {
        apiKey: credentials.apiKey,
        secretKey: credentials.secretKey,
        environment: credentials.environment,
      };
      try {
        const permissions = await adapter.keyPermissions(keys);
        if (permissions.canWithdraw) throw new ExchangeRejectedError(WITHDRAW_ENABLED_REASON);
        if (!permissions.canTradeFutures) {
          throw new ExchangeRejectedError(
            'this API key is not enabled for futures: tick "Enable Futures" on Binance',
          );
        }
        const account = await adapter.account(keys);
        return {
          accountType: 'USDT_FUTURES',
          totalWalletBalance: account.totalWalletBalance,
          totalUnrealizedProfit: account.totalUnrealizedPnl,
          totalMarginBalance: account.totalMarginBalance,
          canTrade: permissions.canTradeFutures,
          canWithdraw: permissions.canWithdraw,
          canDeposit: true,
          assetsCount: account.assets.length,
          positionsCount: account.positions.filter(isOpenPosition).length,
        };
      } catch (err) {
        throw probeError(err);
      }
    },

    async describeKey(_exchange, credentials: ExchangeCredentials) {
      const keys = {
        apiKey: credentials.apiKey,
        secretKey: credentials.secretKey,
        environment: credentials.environment,
      };
      try {
        const [permissions, hedge] = await Promise.all([
          adapter.keyPermissions(keys),
          adapter.hedgeMode(keys),
        ]);
        return {
          permissions: {
            reading: permissions.canRead,
            futuresTrading: permissions.canTradeFutures,
            withdrawals: permissions.canWithdraw,
            ipRestricted: permissions.ipRestricted,
          },
          positionMode: hedge ? 'hedge' : 'one-way',
        };
      } catch (err) {
        throw probeError(err);
      }
    },
  };
}

/** The adapter's failure as the credentials service tells it: busy, unreachable, or the keys refused */
function probeError(err: unknown): unknown {
  if (err instanceof ExchangeRateLimitError) return new ExchangeBusyError(err.message, err.retryAfterMs);
  if (err instanceof ExchangeUnavailableError) return new ExchangeUnreachableError(err.message);
  // The keys may be fine; what came back is not Binance's documented answer (a proxy page, an API change)
  if (err instanceof ExchangeResponseError) {
    return new ExchangeUnreachableError(`the exchange sent an answer Kestrel could not read: ${err.message}`);
  }
  if (err instanceof ExchangeApiError) return rejection(err);
  return err;
}
