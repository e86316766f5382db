import { type RiskEvent, RiskEventsResponseSchema } from '@kestrel/contracts';
import { type ApiClient, unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { riskKeys } from './risk-keys';

/** Events the page lists */
export const RISK_EVENTS_SHOWN = 50;

export async function getRiskEvents(api: ApiClient, signal?: AbortSignal): Promise<RiskEvent[]> {
  return unwrap(
    await api.get('/api/v1/risk/events', {
      query: { limit: RISK_EVENTS_SHOWN },
      schema: RiskEventsResponseSchema,
      signal,
    }),
  ).data;
}

export function getRiskEventsQueryOptions(api: ApiClient) {
  return queryOptions({ queryKey: riskKeys.events(), queryFn: ({ signal }) => getRiskEvents(api, signal) });
}

/** Refused orders, limit changes and kill switches, newest first */
export function useRiskEvents() {
  const { api } = useKestrelRuntime();
  return useQuery(getRiskEventsQueryOptions(api));
}
