import { RiskLimitsResponseSchema, type StoredRiskLimits } from '@kestrel/contracts';
import { type ApiClient, unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { riskKeys } from './risk-keys';

export async function getRiskLimits(api: ApiClient, signal?: AbortSignal): Promise<StoredRiskLimits> {
  return unwrap(await api.get('/api/v1/risk/limits', { schema: RiskLimitsResponseSchema, signal })).data;
}

export function getRiskLimitsQueryOptions(api: ApiClient) {
  return queryOptions({ queryKey: riskKeys.limits(), queryFn: ({ signal }) => getRiskLimits(api, signal) });
}

/** The stored limits (all null until set); read from the database, no exchange needed */
export function useRiskLimits() {
  const { api } = useKestrelRuntime();
  return useQuery(getRiskLimitsQueryOptions(api));
}
