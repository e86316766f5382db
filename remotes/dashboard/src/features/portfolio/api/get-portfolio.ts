import { type DashboardPortfolio, DashboardPortfolioResponseSchema } from '@kestrel/contracts';
import { type ApiClient, unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { portfolioKeys } from './portfolio-keys';

/** Balances per asset valued in USDT, and each open position's share of exposure and margin */
export async function getPortfolio(api: ApiClient, signal?: AbortSignal): Promise<DashboardPortfolio> {
  return unwrap(
    await api.get('/api/v1/dashboard/portfolio', { schema: DashboardPortfolioResponseSchema, signal }),
  ).data;
}

export function getPortfolioQueryOptions(api: ApiClient) {
  return queryOptions({
    queryKey: portfolioKeys.portfolio(),
    queryFn: ({ signal }) => getPortfolio(api, signal),
  });
}

/** The portfolio split; asked for only while an exchange is connected */
export function usePortfolio(enabled: boolean, refetchInterval: number | false) {
  const { api } = useKestrelRuntime();
  return useQuery({ ...getPortfolioQueryOptions(api), enabled, refetchInterval });
}
