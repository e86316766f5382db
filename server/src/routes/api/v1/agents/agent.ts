import { ErrorResponseSchema } from '@kestrel/contracts';
import {
  AGENT_STAGES,
  AgentApprovalParamsSchema,
  AgentApprovalResponseSchema,
  AgentApprovalsResponseSchema,
  AgentDecisionParamsSchema,
  AgentDecisionRecordResponseSchema,
  AgentDecisionsQuerySchema,
  AgentDecisionsResponseSchema,
  AgentEvidenceResponseSchema,
  AgentHealthResponseSchema,
  type AgentStage,
  AgentStageRequestSchema,
  AgentStageResponseSchema,
  AgentStatusResponseSchema,
  AgentTrainingResponseSchema,
} from '@kestrel/contracts/agents';
import { BotIdParamsSchema } from '@kestrel/contracts/bots';
import { callerId, ERRORS, ok, signedInRoutes } from '../../../route-schemas';
import { requireStepUp } from '../../../step-up';

const conflict = { ...ERRORS.notFound, 409: ErrorResponseSchema };
/** Calls that read klines (the cache asks the exchange for missing ones) */
const exchangeErrors = { ...ERRORS.notFound, ...ERRORS.exchange };

/**
 * The AI agent's own calls (issue 18), beside the bot calls every agent also has (`/api/v1/agents/{id}`, start,
 * stop, status, events). An unknown id, another user's agent and a bot that is not an agent are the same 404.
 */
export default signedInRoutes('agents', async (app, route) => {
  const agents = app.agentService;

  app.get(
    '/:id/agent',
    route({
      summary: "The agent's status: stage, latch, model, training, last decision, risk against limits",
      description:
        'The bot it is (state, mode, settings), its stage (backtest → paper → live_approval → live_auto) and the ' +
        'gates of the next promotion, the latch (kill or risk breach: kept until a person resets it), the ' +
        "current model's age against its expiry and the next retrain, training state and its last error.",
      params: BotIdParamsSchema,
      response: { 200: AgentStatusResponseSchema, ...ERRORS.notFound },
    }),
    async (request) => ok(await agents.status(callerId(request), request.params.id), 'Agent status'),
  );

  app.get(
    '/:id/decisions',
    route({
      summary: "The agent's decisions, newest first (one per closed bar, holds included)",
      params: BotIdParamsSchema,
      querystring: AgentDecisionsQuerySchema,
      response: { 200: AgentDecisionsResponseSchema, ...ERRORS.notFound },
    }),
    async (request) =>
      ok(
        await agents.decisions(
          callerId(request),
          request.params.id,
          request.query.before,
          request.query.limit,
        ),
        'Decisions',
      ),
  );

  app.get(
    '/:id/decisions/:decisionId',
    route({
      summary:
        'One decision record: the decision and its explanation, the review, the guard checklist, orders, fills',
      params: AgentDecisionParamsSchema,
      response: { 200: AgentDecisionRecordResponseSchema, ...ERRORS.notFound },
    }),
    async (request) =>
      ok(await agents.decision(callerId(request), request.params.id, request.params.decisionId), 'Decision'),
  );

  app.post(
    '/:id/train',
    route({
      summary: 'Train the agent now (on a worker thread); 409 while a training runs',
      description:
        'Trains on the last `trainBars` closed bars, stores the model, records the configuration in the trial ' +
        'registry and computes the walk-forward evidence. Follow it with GET …/agent (training.state).',
      params: BotIdParamsSchema,
      response: { 202: AgentTrainingResponseSchema, ...conflict },
    }),
    async (request, reply) => {
      const data = await agents.train(callerId(request), request.params.id);
      return reply.code(202).send(ok(data, 'Training started'));
    },
  );

  app.get(
    '/:id/evidence',
    route({
      summary:
        'Walk-forward evidence: OOS equity vs buy-and-hold and random entry, folds, CV, PSR/DSR/PBO, gates',
      params: BotIdParamsSchema,
      response: { 200: AgentEvidenceResponseSchema, ...ERRORS.notFound },
    }),
    async (request) => ok(await agents.evidence(callerId(request), request.params.id), 'Evidence'),
  );

  app.get(
    '/:id/health',
    route({
      summary: "The model's health: feature drift, calibration, hit rate, dissimilarity of recent decisions",
      params: BotIdParamsSchema,
      response: { 200: AgentHealthResponseSchema, ...exchangeErrors },
    }),
    async (request) => ok(await agents.health(callerId(request), request.params.id), 'Model health'),
  );

  app.post(
    '/:id/kill',
    route({
      summary: 'Kill the agent: stop, cancel, close reduce-only, demote to paper and latch',
      description:
        'The latch is kept in the database (it survives restarts): the agent cannot start until a person ' +
        'resets it with POST …/latch/reset.',
      params: BotIdParamsSchema,
      response: { 200: AgentStatusResponseSchema, ...exchangeErrors },
    }),
    async (request) =>
      ok(await agents.kill(callerId(request), request.params.id), 'Agent killed and latched'),
  );

  app.post(
    '/:id/latch/reset',
    route({
      summary: 'Reset the latch (409 when the agent is not latched); it stays stopped, on paper',
      params: BotIdParamsSchema,
      response: { 200: AgentStatusResponseSchema, ...conflict },
    }),
    async (request) => ok(await agents.resetLatch(callerId(request), request.params.id), 'Latch reset'),
  );

  app.post(
    '/:id/stage',
    {
      ...route({
        summary: 'Move the agent to a stage: demotions always, promotions only when their gates pass',
        description:
          'A refused promotion is a 409 whose message names every failing gate. A live stage (live_approval, ' +
          'live_auto) needs the password within 5 minutes; a demotion never does.',
        params: BotIdParamsSchema,
        body: AgentStageRequestSchema,
        response: { 200: AgentStageResponseSchema, ...conflict, 403: ErrorResponseSchema },
      }),
      preHandler: async (request) => {
        const stage = (request.body as { stage: AgentStage }).stage;
        const current = await agents.stage(callerId(request), (request.params as { id: string }).id);
        // A promotion into a live stage lets the agent trade money (live_auto: without asking)
        if (AGENT_STAGES.indexOf(stage) > AGENT_STAGES.indexOf(current) && stage.startsWith('live'))
          await requireStepUp(request);
      },
    },
    async (request) =>
      ok(await agents.setStage(callerId(request), request.params.id, request.body.stage), 'Stage changed'),
  );

  app.get(
    '/:id/approvals',
    route({
      summary: 'Proposals of stage live_approval, newest first (pending ones expire unanswered)',
      params: BotIdParamsSchema,
      response: { 200: AgentApprovalsResponseSchema, ...ERRORS.notFound },
    }),
    async (request) => ok(await agents.approvals(callerId(request), request.params.id), 'Approvals'),
  );

  for (const verdict of ['approve', 'reject'] as const) {
    app.post(
      `/:id/approvals/:approvalId/${verdict}`,
      route({
        summary:
          verdict === 'approve'
            ? 'Approve a proposal: carried out at the next bar close, through the risk guard again'
            : 'Reject a proposal',
        params: AgentApprovalParamsSchema,
        response: { 200: AgentApprovalResponseSchema, ...conflict },
      }),
      async (request) =>
        ok(
          await agents.decide(callerId(request), request.params.id, request.params.approvalId, verdict),
          verdict === 'approve' ? 'Approved' : 'Rejected',
        ),
    );
  }
});
