import { type DriftReport, DriftReportResponseSchema } from '@kestrel/contracts/bots';
import { type ApiClient, unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { botKeys, botPath } from './bot-keys';

/**
 * The report runs a backtest on the server: kept this long before it is asked for again (the bot's next bar is at
 * least a minute away)
 */
export const DRIFT_STALE_MS = 60_000;

export async function getBotDrift(api: ApiClient, id: string, signal?: AbortSignal): Promise<DriftReport> {
  return unwrap(await api.get(botPath(id, '/drift'), { schema: DriftReportResponseSchema, signal })).data;
}

export function getBotDriftQueryOptions(api: ApiClient, id: string) {
  return queryOptions({
    queryKey: botKeys.drift(id),
    queryFn: ({ signal }) => getBotDrift(api, id, signal),
    staleTime: DRIFT_STALE_MS,
    // A 409 (never ran, no backtest can cover the run) will not change by asking again
    retry: false,
  });
}

/** A bot's drift report, asked for only while it is shown */
export function useBotDrift(id: string, enabled: boolean) {
  const { api } = useKestrelRuntime();
  return useQuery({ ...getBotDriftQueryOptions(api, id), enabled });
}
