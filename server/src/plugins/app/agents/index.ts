import { agentEvidenceInWorker, trainAgentInWorker } from '@kestrel/engine/node';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppOptions } from '../../../app';
import { KlineCache } from '../backtest/kline-cache';
import { klineRepository } from '../backtest/kline-repository';
import { LeverageBrackets } from '../backtest/leverage-brackets';
import { agentRepository } from './agent-repository';
import { AGENT_STRATEGY, AgentService, type AgentTrainer } from './agent-service';
import { AgentSessionRuntime } from './agent-session';

declare module 'fastify' {
  interface FastifyInstance {
    /** AI agents: status, decisions, training, evidence, stages, kill and latch, approvals (`/api/v1/agents/{id}/…`) */
    agentService: AgentService;
  }
}

/** Training and evidence on worker threads: the event loop keeps serving while a model trains */
const workerTrainer: AgentTrainer = {
  train: (input) => trainAgentInWorker(input),
  evidence: (input) => agentEvidenceInWorker(input),
};

/**
 * The agent runtime (issue 18). An agent is a bot (kind `agent`, strategy `ml-agent`): the bots' runner leases,
 * starts and stops it like any bot; this plugin gives its sessions the agent's hooks (decide, review, stage, guard,
 * record on every closed bar) and serves the agent's own calls. Registered after the bots and the LLM reviewer.
 */
export default fp(
  async (app: FastifyInstance, { config, deps }: AppOptions) => {
    const klines = new KlineCache(app.db, klineRepository, app.exchangeAdapter);
    const brackets = new LeverageBrackets({
      exchange: app.exchangeAdapter,
      keysFor: (userId) => app.credentialsService.storedKeys(userId),
      clock: app.clock,
      log: app.log,
    });
    const service = new AgentService({
      db: app.db,
      clock: app.clock,
      logger: app.log,
      bots: app.botService,
      runner: app.botRunner,
      log: app.botService.log,
      trainer: deps.agentTrainer ?? workerTrainer,
      exchangeEnv: config.exchange.env,
      loadBars: (key, span) => klines.load(key, span),
      placeOrder: ({ userId, botId, intentKey, order, environment }) =>
        app.orderManager.place({ userId, source: 'bot', botId, intentKey, order, environment }),
    });
    app.decorate('agentService', service);
    app.botService.beforeStart = (row) => service.assertMayStart(row);
    app.botAgentHooks.factory = (row) =>
      row.kind === 'agent' || row.strategy === AGENT_STRATEGY
        ? new AgentSessionRuntime(row, {
            db: app.db,
            clock: app.clock,
            logger: app.log,
            reviewer: app.agentReviewer,
            exchange: app.exchangeAdapter,
            exchangeEnv: config.exchange.env,
            loadBars: (key, span) => klines.load(key, span),
            brackets: (userId, symbol) => brackets.forRun(userId, symbol),
            publish: (userId, notice) => app.socketBus.publish(userId, { kind: 'bot', data: notice }),
            retrainIfDue: (r, model, barClose) => service.retrainIfDue(r, model, barClose),
            latch: (r, reason, positionQty) => service.breach(r, reason, positionQty),
          })
        : undefined;
    app.addHook('onReady', async () => {
      // A training this process's predecessor left running never finishes: it is marked failed, so one may start
      for (const id of await agentRepository.stuckTrainings(app.db)) {
        await agentRepository.abandonTraining(app.db, id, app.clock.now());
      }
    });
    app.addHook('onClose', async () => {
      await service.idle();
    });
  },
  { name: 'agents', dependencies: ['bots', 'agent-llm', 'orders', 'socket-bus', 'credentials'] },
);
