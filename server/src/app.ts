import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ServerConfig } from './config';
import accountPlugin from './core/account';
import authPlugin from './core/auth';
import credentialsPlugin from './core/credentials';
import databasePlugin from './core/database';
import environmentPlugin from './core/environment';
import exchangePlugin from './core/exchange';
import exchangeServicesPlugin from './core/exchange/services';
import liveStreamsPlugin from './core/live';
import notificationsPlugin from './core/notifications';
import telegramPlugin from './core/notifications/telegram';
import type { PluginOptions } from './core/plugin-options';
import recorderPlugin from './core/recorder';
import secretsPlugin from './core/secrets';
import socketPlugin from './core/socket';
import type { Clock } from './lib/clock';
import { systemClock } from './lib/clock';
import { capConnectionsPerIp, httpServerDeadlines } from './lib/connection-limits';
import { createDomainEvents, type DomainEvents } from './lib/domain-events';
import {
  clientErrorHandler,
  errorHandler,
  frameworkErrorHandler,
  notFoundHandler,
} from './lib/error-handler';
import { HttpError } from './lib/http-error';
import { type PluginOrder, registrationOrder } from './lib/plugin-order';
import futuresRoutes from './routes/api/futures';
import accountRoutes from './routes/api/v1/account';
import agentsRoutes from './routes/api/v1/agents';
import agentRoutes from './routes/api/v1/agents/agent';
import driftRoutes from './routes/api/v1/agents/drift';
import agentLlmRoutes from './routes/api/v1/agents/llm';
import agentSignalRoutes from './routes/api/v1/agents/signals';
import authRoutes from './routes/api/v1/auth';
import backtestRoutes from './routes/api/v1/backtests';
import credentialsRoutes from './routes/api/v1/credentials';
import credentialsHooks from './routes/api/v1/credentials/autohooks';
import dashboardRoutes from './routes/api/v1/dashboard';
import analyticsRoutes from './routes/api/v1/dashboard/analytics';
import botsSummaryRoutes from './routes/api/v1/dashboard/bots';
import databaseRoutes from './routes/api/v1/database';
import environmentRoutes from './routes/api/v1/environment';
import healthRoutes from './routes/api/v1/health';
import historyRoutes from './routes/api/v1/history';
import marketRoutes from './routes/api/v1/market';
import notificationRoutes from './routes/api/v1/notifications';
import telegramRoutes from './routes/api/v1/notifications/telegram';
import optimisationRoutes from './routes/api/v1/optimisations';
import orderRoutes from './routes/api/v1/orders';
import riskRoutes from './routes/api/v1/risk';
import signalRoutes from './routes/api/v1/signals';
import security from './routes/plugins/security';
import swagger from './routes/plugins/swagger';
import telegramCommands from './routes/telegram';
import wsRoutes from './routes/ws';
import agentsPlugin from './trading/agents';
import agentLlmPlugin from './trading/agents/llm-reviewer';
import backtestPlugin from './trading/backtest';
import botsPlugin from './trading/bots';
import futuresPlugin from './trading/futures';
import ordersPlugin from './trading/orders';
import riskPlugin, { riskGuardPlugin } from './trading/risk';
import type { TradingDeps } from './trading/trading-deps';
import analyticsPlugin from './views/analytics';
import dashboardPlugin from './views/dashboard';
import driftPlugin from './views/drift';
import historyPlugin from './views/history';

/** Largest JSON body accepted; our requests are a few hundred bytes */
export const BODY_LIMIT_BYTES = 64 * 1024;

/** Parts a caller may supply instead of the ones built from configuration (tests, benchmarks): every floor's */
export type AppDeps = TradingDeps & {
  /**
   * Tests only: registers the domain plugins in another order their dependencies allow (`lib/plugin-order.ts`),
   * to show the order is no part of correctness
   */
  pluginOrder?: PluginOrder;
};

/**
 * The domain plugins. Each names what it needs in its fastify-plugin `dependencies` and reads nothing else at
 * construction; whatever a lower floor offers a higher one (events, tool and strategy-host registries, ports) is
 * created by the lower one. So any order the dependencies allow gives the same app: this list is one of them,
 * kept in floor order for the reader
 */
const DOMAIN_PLUGINS = [
  databasePlugin,
  secretsPlugin,
  authPlugin,
  accountPlugin,
  environmentPlugin,
  telegramPlugin,
  notificationsPlugin,
  exchangePlugin,
  credentialsPlugin,
  riskGuardPlugin,
  ordersPlugin,
  exchangeServicesPlugin,
  futuresPlugin,
  riskPlugin,
  recorderPlugin,
  dashboardPlugin,
  analyticsPlugin,
  historyPlugin,
  socketPlugin,
  liveStreamsPlugin,
  backtestPlugin,
  botsPlugin,
  agentLlmPlugin,
  agentsPlugin,
  driftPlugin,
];

declare module 'fastify' {
  interface FastifyInstance {
    config: ServerConfig;
    clock: Clock;
    /** The domains' typed events (`lib/domain-events.ts`): subscribe at construction, emit once ready */
    events: DomainEvents;
  }
}

/** Builds the Fastify app without listening, so tests can `inject` requests */
export async function buildApp(config: ServerConfig, deps: AppDeps = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      // Belt and braces: the default serializers log no headers or bodies, but a future debug line might
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          '*.password',
          '*.secret_key',
          '*.refresh_token',
        ],
        censor: '[redacted]',
      },
      // The live socket carries its access token in the query string: never log it
      serializers: {
        req: (req: { method: string; url: string; id: string }) => ({
          method: req.method,
          url: redactTokenParam(req.url),
          id: req.id,
        }),
      },
      ...(deps.logStream ? { stream: deps.logStream } : {}),
    },
    bodyLimit: BODY_LIMIT_BYTES,
    // Neither answers quotes the URL or headers back (Fastify's own 414 did)
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
    // Deadlines for slow clients (headers, the whole request with its body, idle sockets): without them one client
    // trickling a thousand uploads holds a thousand sockets for ever (`lib/connection-limits.ts`)
    requestTimeout: config.requestTimeoutMs,
    connectionTimeout: config.idleTimeoutMs,
    http: httpServerDeadlines(config),
    // PGlite's first open of a new data folder initialises a whole cluster (seconds on a busy machine)
    pluginTimeout: 120_000,
    // Ids in logs only; never reflected from a client header
    requestIdHeader: false,
    // request.ip is the client's address behind the configured proxies only (KESTREL_TRUST_PROXY); never a header
    // a client could set itself
    // (a hop count as proxy-addr reads it: the nearest `n` hops are proxies; Fastify's types take it as a function)
    trustProxy:
      typeof config.trustProxy === 'number' ? trustNearestHops(config.trustProxy) : config.trustProxy,
  }).withTypeProvider<ZodTypeProvider>();

  capConnectionsPerIp(
    app.server,
    config.maxConnectionsPerIp,
    (address, open) =>
      app.log.warn(
        { address, open },
        'connection refused: this address already holds the most connections allowed',
      ),
    deps.clock ?? systemClock,
  );
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler(notFoundHandler);
  // Only JSON is accepted (anything else is a 415). Like Fastify's own JSON parser, except that an empty body is
  // "no body": browsers send Content-Type on bodiless POSTs (logout); the route schema decides if one was needed
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(
        new HttpError(400, 'INVALID_JSON', 'Malformed JSON body: the request body is not valid JSON'),
        undefined,
      );
    }
  });
  app.decorate('config', config);
  app.decorate('clock', deps.clock ?? systemClock);
  app.decorate(
    'events',
    createDomainEvents((err, name) => app.log.error({ err, event: name }, 'domain event subscriber failed')),
  );

  const options: PluginOptions<AppDeps> = { config, deps };
  // Registered explicitly in the order @fastify/autoload would use (external, app, routes): autoload imports
  // .ts files natively, which fails under Vitest, and an explicit list also keeps the wiring greppable
  for (const plugin of [security, swagger]) await app.register(plugin, options);
  for (const plugin of registrationOrder(DOMAIN_PLUGINS, deps.pluginOrder)) {
    await app.register(plugin, options);
  }
  await app.register(healthRoutes, { ...options, prefix: '/api/v1' });
  await app.register(databaseRoutes, { ...options, prefix: '/api/v1/database' });
  await app.register(authRoutes, { ...options, prefix: '/api/v1/auth' });
  await app.register(accountRoutes, { ...options, prefix: '/api/v1/account' });
  await app.register(environmentRoutes, { ...options, prefix: '/api/v1/environment' });
  await app.register(
    async (scope) => {
      await scope.register(credentialsHooks);
      await scope.register(credentialsRoutes, options);
    },
    { prefix: '/api/v1/credentials' },
  );
  await app.register(notificationRoutes, { ...options, prefix: '/api/v1/notifications' });
  await app.register(telegramRoutes, { ...options, prefix: '/api/v1/notifications/telegram' });
  await app.register(marketRoutes, { ...options, prefix: '/api/v1/market' });
  await app.register(dashboardRoutes, { ...options, prefix: '/api/v1/dashboard' });
  await app.register(analyticsRoutes, { ...options, prefix: '/api/v1/dashboard' });
  await app.register(historyRoutes, { ...options, prefix: '/api/v1/dashboard/history' });
  await app.register(riskRoutes, { ...options, prefix: '/api/v1/risk' });
  await app.register(futuresRoutes, { ...options, prefix: '/api/futures' });
  await app.register(orderRoutes, { ...options, prefix: '/api/v1/orders' });
  await app.register(backtestRoutes, { ...options, prefix: '/api/v1/backtests' });
  await app.register(optimisationRoutes, { ...options, prefix: '/api/v1/optimisations' });
  await app.register(agentsRoutes, { ...options, prefix: '/api/v1/agents' });
  await app.register(driftRoutes, { ...options, prefix: '/api/v1/agents' });
  await app.register(agentLlmRoutes, { ...options, prefix: '/api/v1/agents' });
  await app.register(agentRoutes, { ...options, prefix: '/api/v1/agents' });
  await app.register(agentSignalRoutes, { ...options, prefix: '/api/v1/agents' });
  await app.register(signalRoutes, { ...options, prefix: '/api/v1/signals' });
  await app.register(botsSummaryRoutes, { ...options, prefix: '/api/v1/dashboard' });
  await app.register(wsRoutes);
  // The linked Telegram chats' commands: registered before the app is ready, when the channel starts its poll
  await app.register(telegramCommands);
  return app;
}

/** `?token=…` (the live socket's access token) replaced before a URL reaches a log line */
export function redactTokenParam(url: string): string {
  return url.replace(/([?&]token=)[^&#]*/gi, '$1[redacted]');
}

/** Trusts the nearest `hops` addresses of the forwarded chain as proxies (hop 0 is the TCP peer) */
function trustNearestHops(hops: number): (address: string, hop: number) => boolean {
  return (_address, hop) => hop < hops;
}
