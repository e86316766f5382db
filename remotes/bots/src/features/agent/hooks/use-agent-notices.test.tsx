import type { AgentDecisionSummary } from '@kestrel/contracts/agents';
import { QueryClient } from '@tanstack/react-query';
import { waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderOnPushSocket } from '../../../test/push-socket';
import { agentKeys } from '../api/agent-api';
import { useAgentNotices } from './use-agent-notices';

const AGENT = '7d1c5a3e-4f7b-4c2e-9a57-0b7f3c2d1e01';
const OTHER = '7d1c5a3e-4f7b-4c2e-9a57-0b7f3c2d1e02';
const BAR = Date.UTC(2026, 10, 20, 12);

function decision(n: number, agentId = AGENT): AgentDecisionSummary {
  return {
    id: String(n),
    agentId,
    barTime: BAR + n * 60_000,
    time: BAR + n * 60_000 + 61_000,
    action: 'hold',
    outcome: 'hold',
    reasonCodes: ['below_threshold'],
    sizeFraction: 0,
    pUp: 0.4,
    pDown: 0.3,
    threshold: 0.55,
    modelId: 'm1',
    stage: 'paper',
    reviewVerdict: null,
    note: 'Hold: below the threshold',
  };
}

function Notices() {
  useAgentNotices(AGENT);
  return null;
}

async function setup() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(agentKeys.decisions(AGENT), [decision(0)]);
  const invalidated = vi.spyOn(queryClient, 'invalidateQueries');
  const { push } = await renderOnPushSocket('notifications/bot', queryClient, <Notices />);
  return { push, queryClient, invalidated };
}

const ids = (queryClient: QueryClient) =>
  queryClient.getQueryData<AgentDecisionSummary[]>(agentKeys.decisions(AGENT))?.map((d) => d.id);

describe("an agent's decision pushes", () => {
  it('put each new decision on top of the timeline once and read the status again; other bots’ pushes are ignored', async () => {
    const { push, queryClient, invalidated } = await setup();
    const notice = (d: AgentDecisionSummary) => ({
      botId: d.agentId,
      type: 'agent_decision',
      time: d.time,
      decision: d,
    });
    push(notice(decision(1)));
    // Replayed after a reconnect: not shown twice
    push(notice(decision(1)));
    push(notice(decision(2, OTHER)));
    push(notice(decision(3)));
    await waitFor(() => expect(ids(queryClient)).toEqual(['3', '1', '0']));
    expect(
      invalidated.mock.calls.every(
        (call) =>
          JSON.stringify((call[0] as { queryKey: unknown }).queryKey) ===
          JSON.stringify(agentKeys.status(AGENT)),
      ),
    ).toBe(true);
    expect(invalidated).toHaveBeenCalledTimes(3);
  });
});
