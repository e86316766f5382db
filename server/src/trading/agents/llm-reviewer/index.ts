import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { PluginOptions } from '../../../core/plugin-options';
import { HttpError } from '../../../lib/http-error';
import { LlmService } from './llm-service';
import type { AgentReviewer } from './reviewer';

declare module 'fastify' {
  interface FastifyInstance {
    /** Agents' LLM settings, usage and stored exchanges (GET/PUT/DELETE /api/v1/agents/{id}/llm) */
    agentLlm: LlmService;
    /** What the agent runtime calls for each entry: null when the agent has no LLM configured */
    agentReviewer: AgentReviewer;
  }
}

/**
 * The optional LLM reviewer of agents. Needs the bots plugin (an agent is a bot of kind `agent`, read through
 * `BotService`: an unknown, foreign or non-agent id is a 404); the agent runtime depends on it and calls
 * `app.agentReviewer`
 */
export default fp(
  async (app: FastifyInstance, { config }: PluginOptions) => {
    const service = new LlmService(
      app.db,
      app.keyring,
      app.clock,
      async (userId, agentId) => {
        const bot = await app.botService.get(userId, agentId);
        if (bot.kind !== 'agent') throw new HttpError(404, 'AGENT_NOT_FOUND', 'No such agent');
      },
      {
        allowPrivate: config.llmAllowPrivate,
        // The agent and the reason only: never the key, the prompt or the answer (those are in the exchange)
        onReviewError: ({ userId, agentId, error }) =>
          app.log.warn({ userId, agentId, error }, 'agent LLM review failed: the entry was vetoed'),
      },
    );
    app.decorate('agentLlm', service);
    app.decorate('agentReviewer', service);
  },
  { name: 'agent-llm', dependencies: ['bots'] },
);
