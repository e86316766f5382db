import { type RiskLimits, RiskLimitsResponseSchema, type StoredRiskLimits } from '@kestrel/contracts';
import { type ApiClient, unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { riskKeys } from './risk-keys';

/** Replaces every limit (null: none); a 400 names the bad field */
export async function updateRiskLimits(api: ApiClient, limits: RiskLimits): Promise<StoredRiskLimits> {
  return unwrap(
    await api.request({
      method: 'PUT',
      path: '/api/v1/risk/limits',
      body: limits,
      schema: RiskLimitsResponseSchema,
    }),
  ).data;
}

export function useUpdateRiskLimits() {
  const { api } = useKestrelRuntime();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (limits: RiskLimits) => updateRiskLimits(api, limits),
    retry: false,
    // Usage, the halt and the audit all change with the limits
    onSuccess: () => queryClient.invalidateQueries({ queryKey: riskKeys.all }),
  });
}
