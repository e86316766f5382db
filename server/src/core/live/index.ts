import type { TradingEnvironment } from '@kestrel/contracts';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { isOpenPosition } from '../exchange/account-figures';
import type { PluginOptions } from '../plugin-options';
import { LiveStreams } from './live-streams';

declare module 'fastify' {
  interface FastifyInstance {
    /** The pushes' producers; undefined when the exchange adapter has no live streams */
    liveStreams: LiveStreams | undefined;
  }
}

/** How long the exchange's symbol list is trusted before it is read again */
const SYMBOLS_TTL_MS = 60 * 60_000;

/**
 * `isListed` through the environment's symbol rules, each (environment, symbol)'s answer kept an hour (failures
 * are not kept)
 */
function listedSymbols(
  app: FastifyInstance,
): (symbol: string, environment: TradingEnvironment) => Promise<boolean> {
  const cache = new Map<string, { at: number; listed: Promise<boolean> }>();
  return (symbol, environment) => {
    const now = app.clock.now().getTime();
    const key = `${environment}/${symbol}`;
    const hit = cache.get(key);
    if (hit && now - hit.at <= SYMBOLS_TTL_MS) return hit.listed;
    const listed = (async () =>
      (await app.exchangeRouter.marketFor(environment).symbolInfo(symbol)) !== undefined)();
    cache.set(key, { at: now, listed });
    listed.catch(() => cache.delete(key));
    return listed;
  };
}

/** Pushes that say the account changed */
const ACCOUNT_KINDS: ReadonlySet<string> = new Set(['order', 'position', 'balance']);

/** Exchange streams → socket pushes, following the sockets of this instance (see `live-streams.ts`) */
export default fp(
  async (app: FastifyInstance, { config, deps }: PluginOptions) => {
    const streams = app.exchangeAdapter.capabilities.liveStreams ? app.exchangeAdapter.streams : undefined;
    if (!streams) {
      app.decorate('liveStreams', undefined);
      return;
    }
    const live = new LiveStreams({
      streams,
      marketStreamOf: (environment) => {
        const other = app.exchangeRouter.adapterFor(environment);
        const otherStreams = other?.capabilities.liveStreams ? other.streams : undefined;
        return otherStreams && ((handlers) => otherStreams.marketStream(handlers));
      },
      environmentOf: (userId) => app.environmentService.current(userId),
      publish: (target, event, options) => {
        // An order, fill or balance change makes the user's kept account figures stale before the page hears of it
        if (typeof target === 'string' && target !== 'all' && ACCOUNT_KINDS.has(event.kind)) {
          app.accountReads.changed(target);
        }
        return app.socketBus.publish(target, event, options);
      },
      // No stored keys: that user simply has no account stream
      keysFor: (account) => app.credentialsService.storedKeys(account),
      openPositionSymbols: async (keys) =>
        (await app.exchangeAdapter.positions(keys)).filter(isOpenPosition).map((p) => p.symbol),
      defaultSymbols: config.liveSymbols,
      isListed: listedSymbols(app),
      depthSnapshot: (environment, symbol, limit) =>
        app.exchangeRouter.marketFor(environment).depth(symbol, limit),
      ...(deps.liveStreamLingerMs !== undefined ? { lingerMs: deps.liveStreamLingerMs } : {}),
      clock: app.clock,
      log: app.log,
    });
    const stopObserving = app.socketBus.observe(live);
    app.decorate('liveStreams', live);
    app.events.on('account.deleted', ({ userId }) => live.refreshUser(userId));
    app.addHook('onClose', async () => {
      stopObserving();
      await live.close();
    });
  },
  {
    name: 'live-streams',
    dependencies: ['socket-bus', 'exchange', 'exchange-services', 'credentials', 'environment'],
  },
);
