import { ErrorResponseSchema } from '@kestrel/contracts';
import {
  AgentApprovalParamsSchema,
  AgentApprovalResponseSchema,
  AgentApprovalsResponseSchema,
  AgentDecisionParamsSchema,
  AgentDecisionRecordResponseSchema,
  AgentDecisionsQuerySchema,
  AgentDecisionsResponseSchema,
  AgentEvidenceResponseSchema,
  AgentHealthResponseSchema,
  AgentStageRequestSchema,
  AgentStageResponseSchema,
  AgentStatusResponseSchema,
  AgentTrainingResponseSchema,
} from '@kestrel/contracts/agents';
import { BotIdParamsSchema } from '@kestrel/contracts/bots';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BEARER, callerId } from '../../../route-schemas';

const tags = ['agents'];
const security = BEARER;
const errors = { 400: ErrorResponseSchema, 401: ErrorResponseSchema, 404: ErrorResponseSchema };
const conflict = { ...errors, 409: ErrorResponseSchema };
/** Calls that read klines (the cache asks the exchange for missing ones) */
const exchangeErrors = {
  ...errors,
  429: ErrorResponseSchema,
  502: ErrorResponseSchema,
  503: ErrorResponseSchema,
};

/**
 * The AI agent's own calls (issue 18), beside the bot calls every agent also has (`/api/v1/agents/{id}`, start,
 * stop, status, events). An unknown id, another user's agent and a bot that is not an agent are the same 404.
 */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);
  const agents = app.agentService;

  app.get(
    '/:id/agent',
    {
      schema: {
        tags,
        security,
        summary: "The agent's status: stage, latch, model, training, last decision, risk against limits",
        description:
          'The bot it is (state, mode, settings), its stage (backtest → paper → live_approval → live_auto) and the ' +
          'gates of the next promotion, the latch (kill or risk breach: kept until a person resets it), the ' +
          "current model's age against its expiry and the next retrain, training state and its last error.",
        params: BotIdParamsSchema,
        response: { 200: AgentStatusResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await agents.status(callerId(request), request.params.id),
      message: 'Agent status',
    }),
  );

  app.get(
    '/:id/decisions',
    {
      schema: {
        tags,
        security,
        summary: "The agent's decisions, newest first (one per closed bar, holds included)",
        params: BotIdParamsSchema,
        querystring: AgentDecisionsQuerySchema,
        response: { 200: AgentDecisionsResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await agents.decisions(
        callerId(request),
        request.params.id,
        request.query.before,
        request.query.limit,
      ),
      message: 'Decisions',
    }),
  );

  app.get(
    '/:id/decisions/:decisionId',
    {
      schema: {
        tags,
        security,
        summary:
          'One decision record: the decision and its explanation, the review, the guard checklist, orders, fills',
        params: AgentDecisionParamsSchema,
        response: { 200: AgentDecisionRecordResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await agents.decision(callerId(request), request.params.id, request.params.decisionId),
      message: 'Decision',
    }),
  );

  app.post(
    '/:id/train',
    {
      schema: {
        tags,
        security,
        summary: 'Train the agent now (on a worker thread); 409 while a training runs',
        description:
          'Trains on the last `trainBars` closed bars, stores the model, records the configuration in the trial ' +
          'registry and computes the walk-forward evidence. Follow it with GET …/agent (training.state).',
        params: BotIdParamsSchema,
        response: { 202: AgentTrainingResponseSchema, ...conflict },
      },
    },
    async (request, reply) => {
      const data = await agents.train(callerId(request), request.params.id);
      return reply.code(202).send({ success: true as const, data, message: 'Training started' });
    },
  );

  app.get(
    '/:id/evidence',
    {
      schema: {
        tags,
        security,
        summary:
          'Walk-forward evidence: OOS equity vs buy-and-hold and random entry, folds, CV, PSR/DSR/PBO, gates',
        params: BotIdParamsSchema,
        response: { 200: AgentEvidenceResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await agents.evidence(callerId(request), request.params.id),
      message: 'Evidence',
    }),
  );

  app.get(
    '/:id/health',
    {
      schema: {
        tags,
        security,
        summary:
          "The model's health: feature drift, calibration, hit rate, dissimilarity of recent decisions",
        params: BotIdParamsSchema,
        response: { 200: AgentHealthResponseSchema, ...exchangeErrors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await agents.health(callerId(request), request.params.id),
      message: 'Model health',
    }),
  );

  app.post(
    '/:id/kill',
    {
      schema: {
        tags,
        security,
        summary: 'Kill the agent: stop, cancel, close reduce-only, demote to paper and latch',
        description:
          'The latch is kept in the database (it survives restarts): the agent cannot start until a person ' +
          'resets it with POST …/latch/reset.',
        params: BotIdParamsSchema,
        response: { 200: AgentStatusResponseSchema, ...exchangeErrors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await agents.kill(callerId(request), request.params.id),
      message: 'Agent killed and latched',
    }),
  );

  app.post(
    '/:id/latch/reset',
    {
      schema: {
        tags,
        security,
        summary: 'Reset the latch (409 when the agent is not latched); it stays stopped, on paper',
        params: BotIdParamsSchema,
        response: { 200: AgentStatusResponseSchema, ...conflict },
      },
    },
    async (request) => ({
      success: true as const,
      data: await agents.resetLatch(callerId(request), request.params.id),
      message: 'Latch reset',
    }),
  );

  app.post(
    '/:id/stage',
    {
      schema: {
        tags,
        security,
        summary: 'Move the agent to a stage: demotions always, promotions only when their gates pass',
        description: 'A refused promotion is a 409 whose message names every failing gate.',
        params: BotIdParamsSchema,
        body: AgentStageRequestSchema,
        response: { 200: AgentStageResponseSchema, ...conflict },
      },
    },
    async (request) => ({
      success: true as const,
      data: await agents.setStage(callerId(request), request.params.id, request.body.stage),
      message: 'Stage changed',
    }),
  );

  app.get(
    '/:id/approvals',
    {
      schema: {
        tags,
        security,
        summary: 'Proposals of stage live_approval, newest first (pending ones expire unanswered)',
        params: BotIdParamsSchema,
        response: { 200: AgentApprovalsResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await agents.approvals(callerId(request), request.params.id),
      message: 'Approvals',
    }),
  );

  for (const verdict of ['approve', 'reject'] as const) {
    app.post(
      `/:id/approvals/:approvalId/${verdict}`,
      {
        schema: {
          tags,
          security,
          summary:
            verdict === 'approve'
              ? 'Approve a proposal: carried out at the next bar close, through the risk guard again'
              : 'Reject a proposal',
          params: AgentApprovalParamsSchema,
          response: { 200: AgentApprovalResponseSchema, ...conflict },
        },
      },
      async (request) => ({
        success: true as const,
        data: await agents.decide(callerId(request), request.params.id, request.params.approvalId, verdict),
        message: verdict === 'approve' ? 'Approved' : 'Rejected',
      }),
    );
  }
};

export default routes;
