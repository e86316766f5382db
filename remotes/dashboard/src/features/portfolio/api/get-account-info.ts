import { type FuturesAccountInfo, FuturesAccountInfoResponseSchema } from '@kestrel/contracts';
import { type ApiClient, unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { portfolioKeys } from './portfolio-keys';

/** Balances per asset, margin totals and the open positions with mark and liquidation prices, in one snapshot */
export async function getAccountInfo(api: ApiClient, signal?: AbortSignal): Promise<FuturesAccountInfo> {
  return unwrap(
    await api.get('/api/futures/account/info', { schema: FuturesAccountInfoResponseSchema, signal }),
  ).data;
}

export function getAccountInfoQueryOptions(api: ApiClient) {
  return queryOptions({
    queryKey: portfolioKeys.account(),
    queryFn: ({ signal }) => getAccountInfo(api, signal),
  });
}

/** The connected account; asked for only while an exchange is connected, refreshed as mark prices move */
export function useAccountInfo(enabled: boolean, refetchInterval: number | false) {
  const { api } = useKestrelRuntime();
  return useQuery({ ...getAccountInfoQueryOptions(api), enabled, refetchInterval });
}
