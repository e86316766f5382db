import { AgentDecisionNoticeSchema, type AgentDecisionSummary } from '@kestrel/contracts/agents';
import { useLiveEvent } from '@kestrel/shared-runtime/react';
import { useQueryClient } from '@tanstack/react-query';
import { AGENT_DECISIONS_PAGE, agentKeys } from '../api/agent-api';

/**
 * The agent's decision pushes (`notifications/bot`, type `agent_decision`): the decision goes on top of the
 * timeline at once, and the status (last decision, position, risk) is read again. Other bot pushes of this agent
 * (orders, fills, stops) refresh its status too
 */
export function useAgentNotices(agentId: string): void {
  const queryClient = useQueryClient();
  useLiveEvent('bot', (notice) => {
    if (notice.botId !== agentId) return;
    const pushed = AgentDecisionNoticeSchema.safeParse(notice);
    if (pushed.success) {
      const decision = pushed.data.decision;
      queryClient.setQueryData<AgentDecisionSummary[]>(agentKeys.decisions(agentId), (list) =>
        list && !list.some((d) => d.id === decision.id)
          ? [decision, ...list].slice(0, AGENT_DECISIONS_PAGE)
          : list,
      );
    }
    void queryClient.invalidateQueries({ queryKey: agentKeys.status(agentId) });
  });
}
