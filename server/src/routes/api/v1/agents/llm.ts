import { MessageResponseSchema } from '@kestrel/contracts';
import {
  AgentLlmExchangesQuerySchema,
  AgentLlmExchangesResponseSchema,
  AgentLlmStatusResponseSchema,
  PutAgentLlmSettingsSchema,
} from '@kestrel/contracts/agents';
import { BotIdParamsSchema } from '@kestrel/contracts/bots';
import { callerId, ERRORS, ok, okMessage, signedInRoutes } from '../../../route-schemas';

/**
 * An agent's optional LLM reviewer (issue 18): its settings, today's usage and every exchange with the model. The
 * key is write-only (sealed by the vault, answered masked). Another user's agent, a bot that is not an agent and an
 * unknown id are all a 404
 */
export default signedInRoutes('agents', async (app, route) => {
  const llm = app.agentLlm;

  app.get(
    '/:id/llm',
    route({
      summary: "The agent's LLM reviewer settings and today's usage",
      description:
        '`settings` is null when no LLM is configured (the agent decides alone). Usage counts the UTC day: ' +
        'calls sent (failed ones included), tokens, spend at the configured prices, and reviews refused by a cap.',
      params: BotIdParamsSchema,
      response: { 200: AgentLlmStatusResponseSchema, ...ERRORS.notFound },
    }),
    async (request) => ok(await llm.status(callerId(request), request.params.id), 'LLM reviewer'),
  );

  app.put(
    '/:id/llm',
    route({
      summary: "Set the agent's LLM reviewer (an OpenAI-compatible endpoint)",
      description:
        'Replaces the settings. `apiKey` omitted keeps the stored key, null removes it. The reviewer sees each ' +
        'entry the model proposes and may approve, reduce or veto it; a failure, a timeout or a reached cap ' +
        'vetoes the entry; exits are never reviewed. baseUrl must be a public address unless the operator set ' +
        'KESTREL_LLM_ALLOW_PRIVATE=1 (400 LLM_URL_REFUSED).',
      params: BotIdParamsSchema,
      body: PutAgentLlmSettingsSchema,
      response: { 200: AgentLlmStatusResponseSchema, ...ERRORS.notFound },
    }),
    async (request) =>
      ok(await llm.put(callerId(request), request.params.id, request.body), 'LLM reviewer saved'),
  );

  app.delete(
    '/:id/llm',
    route({
      summary: "Remove the agent's LLM reviewer (the agent decides alone)",
      description: 'The stored key goes with it; past exchanges stay readable. 404 when none is configured.',
      params: BotIdParamsSchema,
      response: { 200: MessageResponseSchema, ...ERRORS.notFound },
    }),
    async (request) => {
      await llm.remove(callerId(request), request.params.id);
      return okMessage('LLM reviewer removed');
    },
  );

  app.get(
    '/:id/llm/exchanges',
    route({
      summary: "The agent's exchanges with its LLM, newest first",
      description:
        'Every review kept whole: the request sent (messages, tool, temperature, seed), the answer received, ' +
        'the verdict and multiplier applied, the error that made it a veto, latency and tokens. Paged by ' +
        '`before` (an exchange `createdAt`, ms).',
      params: BotIdParamsSchema,
      querystring: AgentLlmExchangesQuerySchema,
      response: { 200: AgentLlmExchangesResponseSchema, ...ERRORS.notFound },
    }),
    async (request) =>
      ok(
        await llm.exchanges(callerId(request), request.params.id, request.query.limit, request.query.before),
        'LLM exchanges',
      ),
  );
});
