import {
  type AgentLlmExchange,
  AgentLlmExchangesResponseSchema,
  type AgentLlmStatus,
  AgentLlmStatusResponseSchema,
  type PutAgentLlmSettingsInput,
} from '@kestrel/contracts/agents';
import { type ApiClient, unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { botPath } from '../../bots/api/bot-keys';
import { agentKeys } from './agent-api';

/** The agent's optional LLM reviewer: `GET/PUT/DELETE /api/v1/agents/{id}/llm` and its kept exchanges */
export const llmKeys = {
  status: (id: string) => [...agentKeys.all(id), 'llm'] as const,
  exchanges: (id: string, before: number) => [...agentKeys.all(id), 'llm', 'exchanges', before] as const,
};

/** How many exchanges are read around a decision's time to find its own */
const EXCHANGES_AROUND = 20;

export async function getAgentLlm(api: ApiClient, id: string, signal?: AbortSignal): Promise<AgentLlmStatus> {
  return unwrap(await api.get(botPath(id, '/llm'), { schema: AgentLlmStatusResponseSchema, signal })).data;
}

/** Settings and today's use (calls, tokens, spend); read again with the agent's status while it runs */
export function useAgentLlm(id: string, refreshMs: number | false, enabled: boolean) {
  const { api } = useKestrelRuntime();
  return useQuery({
    enabled,
    queryKey: llmKeys.status(id),
    queryFn: ({ signal }) => getAgentLlm(api, id, signal),
    refetchInterval: refreshMs,
  });
}

/** Saves the settings (a new key, or none to keep the stored one) or removes them all (`null`) */
export function useSaveAgentLlm(id: string) {
  const { api } = useKestrelRuntime();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (settings: PutAgentLlmSettingsInput | null): Promise<void> => {
      if (settings === null) unwrap(await api.delete(botPath(id, '/llm')));
      else {
        unwrap(
          await api.request({
            method: 'PUT',
            path: botPath(id, '/llm'),
            body: settings,
            schema: AgentLlmStatusResponseSchema,
          }),
        );
      }
    },
    retry: false,
    onSettled: () => queryClient.invalidateQueries({ queryKey: llmKeys.status(id) }),
  });
}

/**
 * The kept prompt and reply of one review: the exchanges are listed newest first by time, so the ones up to the
 * decision's record time are read and the review's own picked out (null when it is older than that page)
 */
export function useLlmExchange(id: string, exchangeId: string, recordTime: number, enabled: boolean) {
  const { api } = useKestrelRuntime();
  return useQuery({
    queryKey: llmKeys.exchanges(id, recordTime),
    queryFn: async ({ signal }): Promise<AgentLlmExchange[]> =>
      unwrap(
        await api.get(botPath(id, '/llm/exchanges'), {
          query: { before: recordTime + 1, limit: EXCHANGES_AROUND },
          schema: AgentLlmExchangesResponseSchema,
          signal,
        }),
      ).data,
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
    select: (list) => list.find((e) => e.id === exchangeId) ?? null,
  });
}
