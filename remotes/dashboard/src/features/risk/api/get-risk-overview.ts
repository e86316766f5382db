import { type RiskOverview, RiskOverviewResponseSchema } from '@kestrel/contracts';
import { type ApiClient, unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { riskKeys } from './risk-keys';

export async function getRiskOverview(api: ApiClient, signal?: AbortSignal): Promise<RiskOverview> {
  return unwrap(await api.get('/api/v1/risk/overview', { schema: RiskOverviewResponseSchema, signal })).data;
}

export function getRiskOverviewQueryOptions(api: ApiClient) {
  return queryOptions({
    queryKey: riskKeys.overview(),
    queryFn: ({ signal }) => getRiskOverview(api, signal),
  });
}

/** Margin, leverage, liquidation distances, exposure, VaR and limit usage; asked only with an exchange connected */
export function useRiskOverview(enabled: boolean) {
  const { api } = useKestrelRuntime();
  return useQuery({ ...getRiskOverviewQueryOptions(api), enabled });
}
