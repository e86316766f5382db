import {
  type BinanceKeySetup,
  BinanceKeySetupResponseSchema,
  type TradingEnvironment,
} from '@kestrel/contracts';
import { type ApiClient, unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { useQuery } from '@tanstack/react-query';

export async function getKeySetup(api: ApiClient, signal?: AbortSignal): Promise<BinanceKeySetup> {
  return unwrap(
    await api.get('/api/v1/credentials/binance/key-setup', { schema: BinanceKeySetupResponseSchema, signal }),
  ).data;
}

/**
 * The stored key's permissions and the account's position mode, asked of the exchange while the card shows them
 * (per environment: each has its own key). Read once per visit: both change only on Binance's site
 */
export function useKeySetup(environment: TradingEnvironment, enabled: boolean) {
  const { api } = useKestrelRuntime();
  return useQuery({
    queryKey: ['exchange', 'binance', 'key-setup', environment],
    queryFn: ({ signal }) => getKeySetup(api, signal),
    enabled,
    staleTime: 60_000,
    retry: false,
  });
}
