import { describe, expect, it } from 'vitest';
import {
  AGENT_GUARD_CHECKS,
  AgentApprovalParamsSchema,
  AgentDecisionNoticeSchema,
  AgentDecisionParamsSchema,
  AgentDecisionsQuerySchema,
  AgentStageRequestSchema,
} from './agents';

const id = '6f1c2a3b-4d5e-4f60-8a7b-1c2d3e4f5a6b';
const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues[0]?.message;

describe('agent contracts', () => {
  it('names the stages a stage change may ask for', () => {
    expect(AgentStageRequestSchema.parse({ stage: 'live_approval' })).toEqual({ stage: 'live_approval' });
    expect(firstMessage(AgentStageRequestSchema.safeParse({ stage: 'live' }))).toBe(
      'stage must be one of backtest, paper, live_approval, live_auto',
    );
    expect(AgentStageRequestSchema.safeParse({ stage: 'paper', extra: 1 }).success).toBe(false);
  });

  it('reads paging and ids from the URL, refusing what the database could not hold', () => {
    expect(AgentDecisionsQuerySchema.parse({})).toEqual({ limit: 100 });
    expect(AgentDecisionsQuerySchema.parse({ before: '1736935200000', limit: '5' })).toEqual({
      before: 1736935200000,
      limit: 5,
    });
    expect(firstMessage(AgentDecisionsQuerySchema.safeParse({ limit: '501' }))).toBe(
      'limit must be at most 500',
    );
    expect(AgentDecisionParamsSchema.safeParse({ id, decisionId: '42' }).success).toBe(true);
    expect(firstMessage(AgentDecisionParamsSchema.safeParse({ id, decisionId: '9'.repeat(19) }))).toBe(
      'decisionId must be a decision id',
    );
    expect(firstMessage(AgentApprovalParamsSchema.safeParse({ id: 'nope', approvalId: '1' }))).toBe(
      'id must be an agent id (a UUID)',
    );
  });

  it('the live push of a decision carries its summary under the bots’ notice', () => {
    const notice = {
      botId: id,
      type: 'agent_decision',
      time: 1,
      decision: {
        id: '1',
        agentId: id,
        barTime: 0,
        time: 1,
        action: 'hold',
        outcome: 'hold',
        reasonCodes: ['below_threshold'],
        sizeFraction: 0,
        pUp: 0.4,
        pDown: 0.3,
        threshold: 0.55,
        modelId: 'm',
        stage: 'paper',
        reviewVerdict: null,
        note: 'Hold: probability below the threshold',
      },
    };
    expect(AgentDecisionNoticeSchema.parse(notice)).toEqual(notice);
    expect(AGENT_GUARD_CHECKS).toHaveLength(10);
  });
});
