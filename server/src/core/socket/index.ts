import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { PluginOptions } from '../plugin-options';
import { channelFor, SocketBus } from './socket-bus';
import { registerCoreSocketTools, SocketTools } from './socket-tools';

/** How often open sockets are checked against their session rows (a logout closes them within this) */
export const SESSION_RECHECK_MS = 30_000;
export const SESSION_ENDED_CLOSE = {
  code: 4401,
  reason: 'Session has ended. Please sign in again.',
} as const;
/** A socket over the per-user cap (`KESTREL_MAX_SOCKETS_PER_USER`) is refused with this code */
export const TOO_MANY_SOCKETS_CLOSE = 4429;

/** Largest frame a client may send; tool calls are a few hundred bytes. Bigger frames close the socket (1009) */
export const SOCKET_MAX_FRAME_BYTES = 64 * 1024;

declare module 'fastify' {
  interface FastifyInstance {
    /** Server pushes: `socketBus.publish(userId | 'all', { kind, data })`, delivered on every instance */
    socketBus: SocketBus;
    /** The socket's tools: each plugin registers the tools it answers at construction (`register`) */
    socketTools: SocketTools;
  }
}

/** The live socket's machinery: the ws server, the push bus (LISTEN/NOTIFY) and the tools' registry */
export default fp(
  async (app: FastifyInstance, { config }: PluginOptions) => {
    await app.register(websocket, {
      options: { maxPayload: SOCKET_MAX_FRAME_BYTES },
      // A frame that breaks the WebSocket protocol (over 64 KiB, invalid UTF-8, a bad opcode) is the client's doing:
      // one warn line naming it, without a stack (the plugin's default logs each at error level with one). `ws` has
      // already sent the close code; the connection ends, so it is one line per connection
      errorHandler(error, socket, request) {
        const code = (error as { code?: unknown }).code;
        if (typeof code === 'string' && code.startsWith('WS_ERR_')) {
          request.log.warn({ code, reason: error.message }, 'socket closed: the client sent a bad frame');
        } else {
          request.log.error({ err: error }, 'socket failed');
        }
        socket.terminate();
      },
    });
    // A logout or revocation closes the user's sockets at once, on every instance (through the bus's NOTIFY); the
    // periodic re-check stays for sessions that end on their own (expiry) and for a lost notification
    const bus: SocketBus = new SocketBus(
      app.db,
      await channelFor(app.db),
      app.clock,
      (userId) => void endSockets(userId),
    );
    await bus.start();
    app.decorate('socketBus', bus);
    const startedAt = app.clock.now();
    const tools = new SocketTools();
    app.decorate('socketTools', tools);
    registerCoreSocketTools(tools, {
      credentials: app.credentialsService,
      accountOf: (userId, environment) => app.environmentService.accountOf(userId, environment),
      status: () => ({
        status: 'ok',
        time: app.clock.now().toISOString(),
        uptime_s: Math.floor((app.clock.now().getTime() - startedAt.getTime()) / 1000),
        database: app.db.driver,
        connections: bus.connectionCount,
        // What the testnet environment is on this server (simulator or Binance's testnet), and whether mainnet is
        testnet: config.exchangeTargets.testnet.configured,
        mainnet: config.exchangeTargets.mainnet.configured,
      }),
    });
    // Every tool of the contract is answered by some plugin: a missing one is a wiring error, found at start
    app.addHook('onReady', async () => {
      const missing = tools.missing();
      if (missing.length > 0) throw new Error(`Socket tools nobody registered: ${missing.join(', ')}`);
    });
    function endSockets(userId?: string) {
      return bus
        .endSocketsOfEndedSessions(
          (ids) => app.authService.liveSessionIds(ids),
          SESSION_ENDED_CLOSE.code,
          SESSION_ENDED_CLOSE.reason,
          userId,
        )
        .catch((err: unknown) => app.log.warn({ err }, 'socket session re-check failed'));
    }
    app.events.on('auth.sessions-ended', ({ userId }) =>
      bus
        .sessionsEnded(userId)
        .catch((err: unknown) => app.log.warn({ err }, 'telling sockets of ended sessions failed')),
    );
    app.events.on('notification.created', ({ userId, notice }) =>
      bus.publish(userId, { kind: 'notification', data: notice }),
    );
    const recheck = app.clock.every(SESSION_RECHECK_MS, () => void endSockets(), { unref: true });
    // Stop listening before the database closes: onClose hooks run in reverse registration order, and a
    // dependency is always registered before its dependents
    app.addHook('onClose', async () => {
      recheck.cancel();
      await bus.close();
    });
  },
  { name: 'socket-bus', dependencies: ['database', 'secrets', 'auth', 'environment', 'credentials'] },
);
