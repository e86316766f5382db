import { ErrorResponseSchema, MessageResponseSchema } from '@kestrel/contracts';
import {
  AgentLlmExchangesQuerySchema,
  AgentLlmExchangesResponseSchema,
  AgentLlmStatusResponseSchema,
  PutAgentLlmSettingsSchema,
} from '@kestrel/contracts/agents';
import { BotIdParamsSchema } from '@kestrel/contracts/bots';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BEARER, callerId } from '../../../route-schemas';

const tags = ['agents'];
const security = BEARER;
const errors = { 400: ErrorResponseSchema, 401: ErrorResponseSchema, 404: ErrorResponseSchema };

/**
 * An agent's optional LLM reviewer (issue 18): its settings, today's usage and every exchange with the model. The
 * key is write-only (sealed by the vault, answered masked). Another user's agent, a bot that is not an agent and an
 * unknown id are all a 404
 */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);
  const llm = app.agentLlm;

  app.get(
    '/:id/llm',
    {
      schema: {
        tags,
        security,
        summary: "The agent's LLM reviewer settings and today's usage",
        description:
          '`settings` is null when no LLM is configured (the agent decides alone). Usage counts the UTC day: ' +
          'calls sent (failed ones included), tokens, spend at the configured prices, and reviews refused by a cap.',
        params: BotIdParamsSchema,
        response: { 200: AgentLlmStatusResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await llm.status(callerId(request), request.params.id),
      message: 'LLM reviewer',
    }),
  );

  app.put(
    '/:id/llm',
    {
      schema: {
        tags,
        security,
        summary: "Set the agent's LLM reviewer (an OpenAI-compatible endpoint)",
        description:
          'Replaces the settings. `apiKey` omitted keeps the stored key, null removes it. The reviewer sees each ' +
          'entry the model proposes and may approve, reduce or veto it; a failure, a timeout or a reached cap ' +
          'vetoes the entry; exits are never reviewed. baseUrl must be a public address unless the operator set ' +
          'KESTREL_LLM_ALLOW_PRIVATE=1 (400 LLM_URL_REFUSED).',
        params: BotIdParamsSchema,
        body: PutAgentLlmSettingsSchema,
        response: { 200: AgentLlmStatusResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await llm.put(callerId(request), request.params.id, request.body),
      message: 'LLM reviewer saved',
    }),
  );

  app.delete(
    '/:id/llm',
    {
      schema: {
        tags,
        security,
        summary: "Remove the agent's LLM reviewer (the agent decides alone)",
        description:
          'The stored key goes with it; past exchanges stay readable. 404 when none is configured.',
        params: BotIdParamsSchema,
        response: { 200: MessageResponseSchema, ...errors },
      },
    },
    async (request) => {
      await llm.remove(callerId(request), request.params.id);
      return { success: true as const, message: 'LLM reviewer removed' };
    },
  );

  app.get(
    '/:id/llm/exchanges',
    {
      schema: {
        tags,
        security,
        summary: "The agent's exchanges with its LLM, newest first",
        description:
          'Every review kept whole: the request sent (messages, tool, temperature, seed), the answer received, ' +
          'the verdict and multiplier applied, the error that made it a veto, latency and tokens. Paged by ' +
          '`before` (an exchange `createdAt`, ms).',
        params: BotIdParamsSchema,
        querystring: AgentLlmExchangesQuerySchema,
        response: { 200: AgentLlmExchangesResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await llm.exchanges(
        callerId(request),
        request.params.id,
        request.query.limit,
        request.query.before,
      ),
      message: 'LLM exchanges',
    }),
  );
};

export default routes;
