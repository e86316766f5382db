import { KillSwitchResponseSchema, type KillSwitchResult } from '@kestrel/contracts';
import { type ApiClient, unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { riskKeys } from './risk-keys';

/** Cancels every order and closes every position at market; the answer lists each outcome */
export async function triggerKillSwitch(api: ApiClient): Promise<KillSwitchResult> {
  return unwrap(await api.post('/api/v1/risk/kill-switch', {}, { schema: KillSwitchResponseSchema })).data;
}

export function useKillSwitch() {
  const { api } = useKestrelRuntime();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => triggerKillSwitch(api),
    // Never sent twice by us: a second press is the user's decision
    retry: false,
    // Not awaited: the outcome shows the moment the server answers, while the figures refresh behind it
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: riskKeys.all });
      // Positions and orders shown anywhere else on the page
      void queryClient.invalidateQueries({ queryKey: ['futures'] });
    },
  });
}
