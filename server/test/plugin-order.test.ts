import { SocketToolNameSchema } from '@kestrel/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PluginOrder } from '../src/lib/plugin-order';
import { agentRepository } from '../src/trading/agents/agent-repository';
import { STOPPED_BY_KILL_SWITCH } from '../src/trading/bots/bot-lifecycle';
import { botRepository } from '../src/trading/bots/bot-repository';
import { insertBotRow } from './bot-rows';
import { buildTestApp, openTestDatabase, signUp, type TestApp, type TestDatabase } from './helper';

/**
 * The domain plugins registered in other orders their dependencies allow give the same app: no plugin reads a
 * neighbour it does not depend on, and what crosses domains (events, the socket tools, the strategy hosts, the
 * agents' drift port) is wired at construction. The whole suite runs under another order with
 * KESTREL_TEST_PLUGIN_ORDER=reversed (or seed:<n>); this file checks the cross-domain wiring under a few
 */
describe.each<PluginOrder>(['reversed', { seed: 7 }, { seed: 1234 }])(
  'plugins registered %j',
  (pluginOrder) => {
    let tdb: TestDatabase;
    let t: TestApp;

    beforeAll(async () => {
      tdb = await openTestDatabase('pglite');
      t = await buildTestApp(tdb.db, { pluginOrder });
    });

    afterAll(async () => {
      await t?.app.close();
      await tdb?.cleanup();
    });

    const insertAgent = (userId: string) =>
      insertBotRow(tdb.db, userId, 'agent', t.clock.now(), { mode: 'live' });

    it('lists every socket tool of the contract, in its order', () => {
      expect(t.app.socketTools.list().map((tool) => tool.name)).toEqual(SocketToolNameSchema.options);
    });

    it("vetoes a latched agent's start (bot.starting)", async () => {
      const { user } = await signUp(t);
      const id = await insertAgent(user.id);
      await agentRepository.state(tdb.db, id, t.clock.now());
      await agentRepository.latch(tdb.db, id, { cause: 'guard', reason: 'a test latch' }, t.clock.now());
      await expect(t.app.botService.start(user.id, id)).rejects.toMatchObject({ code: 'AGENT_LATCHED' });
    });

    it('latches the agents before the kill switch stops the bots, and demotes them after (bots.halting/halted)', async () => {
      const { user } = await signUp(t);
      const id = await insertAgent(user.id);
      const row = await botRepository.find(tdb.db, user.id, id);
      if (!row) throw new Error('the agent row is missing');
      await t.app.events.emit('bots.halting', { userId: user.id, bots: [row] });
      const state = await agentRepository.state(tdb.db, id, t.clock.now());
      expect({ cause: state.latch_cause, reason: state.latch_reason }).toEqual({
        cause: 'kill',
        reason: STOPPED_BY_KILL_SWITCH,
      });
      expect((await botRepository.find(tdb.db, user.id, id))?.mode).toBe('live');
      await t.app.events.emit('bots.halted', { userId: user.id, bots: [row], stopped: 0 });
      expect((await botRepository.find(tdb.db, user.id, id))?.mode).toBe('paper');
    });

    it('the kill switch reaches the bots (killswitch.requested): a user without bots has none stopped', async () => {
      const { user } = await signUp(t);
      let stopped = -1;
      await t.app.events.emit('killswitch.requested', {
        userId: user.id,
        stopped: (n) => {
          stopped = n;
        },
      });
      expect(stopped).toBe(0);
    });
  },
);
