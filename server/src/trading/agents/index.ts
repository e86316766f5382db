import type { TradingEnvironment } from '@kestrel/contracts';
import { agentEvidenceInWorker, trainAgentInWorker } from '@kestrel/engine/node';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { exchangeNameOf } from '../../core/exchange/exchange-config';
import { KlineCache } from '../../core/market-data/kline-cache';
import { klineRepository } from '../../core/market-data/kline-repository';
import type { PluginOptions } from '../../core/plugin-options';
import { channelFor } from '../../core/socket/socket-bus';
import type { TradingDeps } from '../trading-deps';
import { AgentService } from './agent-service';
import { AgentSessionRuntime } from './agent-session';
import { AgentSnapshots } from './agent-snapshot';
import { registerAgentSocketTools } from './agent-socket-tools';
import type { AgentTrainer } from './agent-training';
import { AgentTrainings } from './agent-training-job';
import { PaperDriftPort } from './paper-drift-port';

declare module 'fastify' {
  interface FastifyInstance {
    /** AI agents: status, decisions, training, evidence, stages, kill and latch, approvals (`/api/v1/agents/{id}/…`) */
    agentService: AgentService;
    /** Where the drift report provides the agents' paper-drift evidence */
    agentPaperDrift: PaperDriftPort;
  }
}

/** Training and evidence on worker threads: the event loop keeps serving while a model trains */
const workerTrainer: AgentTrainer = {
  train: (input, signal) => trainAgentInWorker(input, { signal }),
  evidence: (input, signal) => agentEvidenceInWorker(input, { signal }),
};

/**
 * The agent runtime (issue 18). An agent is a bot (kind `agent`, strategy `ml-agent`): the bots' runner leases,
 * starts and stops it like any bot; this plugin gives its sessions the agent's hooks (decide, review, stage, guard,
 * record on every closed bar) and serves the agent's own calls. Needs the bots and the LLM reviewer (dependencies).
 */
export default fp(
  async (app: FastifyInstance, { config, deps }: PluginOptions<TradingDeps>) => {
    const brackets = app.leverageBrackets;
    // An agent's market is its environment's (where it trades), whatever its owner is on now: one kline cache and
    // one snapshot source per environment, candles stored under that exchange's name as the bots' are
    const snapshotSources = new Map<TradingEnvironment, AgentSnapshots>();
    const snapshots = (environment: TradingEnvironment) => {
      let source = snapshotSources.get(environment);
      if (!source) {
        const market = app.exchangeRouter.marketFor(environment);
        const klines = new KlineCache(app.db, klineRepository, market);
        source = new AgentSnapshots({
          exchange: market,
          exchangeEnv: exchangeNameOf(config.exchangeTargets, environment),
          loadBars: (key, span) => klines.load(key, span),
          logger: app.log,
        });
        snapshotSources.set(environment, source);
      }
      return source;
    };
    // Trainings are jobs: leased through the database like backtests, so a killed instance's training is found
    const trainings = new AgentTrainings({
      db: app.db,
      clock: app.clock,
      log: app.log,
      trainer: deps.agentTrainer ?? workerTrainer,
      snapshots,
      channel: await channelFor(app.db, 'kestrel_agent_training'),
    });
    // The drift report sits on the floor above: it provides its source through this port at its construction
    const paperDrift = new PaperDriftPort();
    app.decorate('agentPaperDrift', paperDrift);
    const service = new AgentService({
      db: app.db,
      clock: app.clock,
      logger: app.log,
      bots: app.botService,
      runner: app.botRunner,
      log: app.botService.log,
      trainings,
      snapshots,
      paperDrift: (userId, id) => paperDrift.read(userId, id),
      placeOrder: ({ account, botId, intentKey, order }) =>
        app.orderManager.place({ account, source: 'bot', origin: 'agent', botId, intentKey, order }),
    });
    app.decorate('agentService', service);
    registerAgentSocketTools(app.socketTools, {
      list: async (userId) => (await app.botService.list(userId)).filter((bot) => bot.kind === 'agent'),
      status: (userId, agentId) => service.status(userId, agentId),
      decisions: (userId, agentId, page) => service.decisions(userId, agentId, page.before, page.limit),
    });
    // A latched agent may not start: the veto's error is the start's answer
    app.events.on('bot.starting', ({ row }) => service.assertMayStart(row));
    // The account's kill switch is a kill for every agent that was trading: latched like POST …/kill before the
    // bots stop, demoted to paper once they have
    app.events.on('bots.halting', ({ bots }) => service.latchForKillSwitch(bots));
    app.events.on('bots.halted', ({ bots }) => service.demoteAfterKillSwitch(bots));
    app.botStrategyHosts.register('agent', (row) => {
      // A session opens: no fresh model means a training now (entries wait for it; exits never do)
      void service
        .trainIfStale(row)
        .catch((err: unknown) =>
          app.log.warn({ err, botId: row.id }, 'agent training at start failed to begin'),
        );
      return new AgentSessionRuntime(row, {
        db: app.db,
        clock: app.clock,
        logger: app.log,
        reviewer: app.agentReviewer,
        exchange: app.exchangeRouter.marketFor(row.environment),
        snapshots: snapshots(row.environment),
        brackets: (account, symbol) => brackets.forRun(account, symbol),
        publish: (userId, notice) => app.socketBus.publish(userId, { kind: 'bot', data: notice }),
        retrainIfDue: (r, model, barClose) => service.retrainIfDue(r, model, barClose),
        approvalWaiting: (r, note, expiresAt) =>
          app.notifications.notify(r.user_id, 'agent_approval_waiting', {
            title: `Agent “${r.name}” waits for your approval`,
            message: `${note} on ${r.symbol}: approve or reject it on its page before ${expiresAt.toISOString().slice(11, 16)} UTC, or it lapses`,
            data: { botId: r.id, expiresAt: expiresAt.getTime() },
          }),
        latch: (r, reason, positionQty) => service.breach(r, reason, positionQty),
      });
    });
    app.addHook('onReady', () => trainings.start());
    // Before the database closes (onClose runs in reverse registration order; the database is a dependency, so
    // registered before): a training ends now and says so
    app.addHook('onClose', async () => {
      await service.close();
    });
  },
  {
    name: 'agents',
    dependencies: [
      'bots',
      'agent-llm',
      'orders',
      'socket-bus',
      'credentials',
      'risk',
      'exchange-services',
      'notifications',
    ],
  },
);
