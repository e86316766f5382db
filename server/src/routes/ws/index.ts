import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { TOO_MANY_SOCKETS_CLOSE } from '../../core/socket';
import { type FrameContext, handleFrame } from '../../core/socket/json-rpc';
import { ALL_STREAMS, type BusConnection } from '../../core/socket/socket-bus';
import { HttpError } from '../../lib/http-error';

/** Close codes the client sees on a refused socket (4000–4999 are the application's) */
export const CLOSE_CODES = { badClientId: 4400, unauthorized: 4401, slowConsumer: 4408 } as const;
/** A socket this far behind on pushes is closed rather than buffered without end (it reconnects and refetches) */
export const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

/** Pushes held for a socket while its token is checked (milliseconds); more than this and the rest are dropped */
const MAX_HELD_FRAMES = 256;

const CLIENT_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

/** The `sub` claim of a JWT read without verifying it: only to know whose pushes to hold during the check */
function unverifiedSubject(token: string): string | undefined {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { sub?: unknown };
    return typeof claims.sub === 'string' && claims.sub.length <= 64 ? claims.sub : undefined;
  } catch {
    return undefined;
  }
}
const MISSING_TOKEN = 'Not authenticated: pass the access token as the token query parameter';

/** JSON-RPC codes of a frame that is not a request at all (not JSON, not an object, no method) */
const BAD_FRAME = /^\{"jsonrpc":"2\.0","id":[^,]*,"error":\{"code":-(32700|32600),/;

/**
 * Warn lines about one connection's bad frames: the first at once, then at most one a minute carrying how many were
 * left out, so a client sending garbage in a loop cannot flood the log
 */
export class BadFrameLog {
  #lastAt = Number.NEGATIVE_INFINITY;
  #skipped = 0;
  constructor(
    private readonly warn: (fields: object, message: string) => void,
    private readonly now: () => number,
    private readonly everyMs = 60_000,
  ) {}

  note(code: number): void {
    const at = this.now();
    if (at - this.#lastAt < this.everyMs) {
      this.#skipped += 1;
      return;
    }
    this.warn({ code, skipped: this.#skipped }, 'socket frame refused: not a JSON-RPC 2.0 request');
    this.#lastAt = at;
    this.#skipped = 0;
  }
}

/** Close reasons are limited to 123 bytes by the protocol */
function reason(text: string): string {
  return Buffer.byteLength(text) <= 123 ? text : `${Buffer.from(text).subarray(0, 120).toString('utf8')}...`;
}

/**
 * The live socket: `GET /ws/{client id}?token=<access token>` upgraded to a WebSocket speaking JSON-RPC 2.0. The
 * token gets the same checks as a bearer token on HTTP (signature, expiry, audience, type, live session).
 */
export default async function wsRoutes(app: FastifyInstance) {
  app.get<{ Params: { clientId: string }; Querystring: { token?: string } }>(
    '/ws/:clientId',
    { websocket: true },
    (socket: WebSocket, request) => {
      // Frames can arrive while the token is being checked: hold them until then
      const early: string[] = [];
      let onText: (text: string) => void = (text) => void early.push(text);
      socket.on('message', (data, isBinary) => {
        if (isBinary) {
          socket.send(
            JSON.stringify({
              jsonrpc: '2.0',
              id: null,
              error: { code: -32600, message: 'Invalid request: send JSON-RPC as text frames, not binary' },
            }),
          );
          return;
        }
        onText(data.toString());
      });

      if (!CLIENT_ID.test(request.params.clientId)) {
        socket.close(CLOSE_CODES.badClientId, 'Invalid client id: use 1-128 letters, digits, _ . : -');
        return;
      }
      const token = typeof request.query.token === 'string' ? request.query.token : '';
      if (!token) {
        socket.close(CLOSE_CODES.unauthorized, MISSING_TOKEN);
        return;
      }
      // Registered before the token check ends, so that a push published from the moment the socket opened is not
      // lost: it is held and sent once the check passes, dropped if it fails. Whose pushes are held comes from the
      // token's unverified payload; nothing reaches the socket before the check, and a token whose verified user
      // differs from its payload's is refused by the check anyway
      let held: string[] | undefined = [];
      const connection: BusConnection = {
        userId: unverifiedSubject(token) ?? '',
        sessionId: '',
        end(code, text) {
          socket.close(code, reason(text));
        },
        streams: ALL_STREAMS,
        symbols: undefined,
        watch: new Set(),
        candles: new Set(),
        books: new Set(),
        send(frame) {
          if (socket.readyState !== socket.OPEN) return false;
          if (held) {
            if (held.length >= MAX_HELD_FRAMES) return false;
            held.push(frame);
            return true;
          }
          if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
            socket.close(CLOSE_CODES.slowConsumer, 'Too far behind on pushes; reconnect and refetch');
            return false;
          }
          socket.send(frame);
          return true;
        },
      };
      const remove = connection.userId ? app.socketBus.add(connection, { verified: false }) : () => {};
      socket.on('close', remove);

      app.authService.authenticate(`Bearer ${token}`).then(
        (auth) => {
          if (socket.readyState !== socket.OPEN || auth.userId !== connection.userId) {
            remove();
            held = undefined;
            if (socket.readyState === socket.OPEN) {
              socket.close(CLOSE_CODES.unauthorized, 'Access token is invalid. Please sign in again.');
            }
            return;
          }
          // The cap counts checked sockets only, so nobody can fill another user's quota with forged tokens. The
          // newcomer is refused rather than the oldest closed: open pages keep their live data, and two tabs over
          // the cap cannot evict each other in a reconnect loop (the runtime backs off after a refusal)
          const max = app.config.maxSocketsPerUser;
          if (app.socketBus.openFor(auth.userId) >= max) {
            remove();
            held = undefined;
            socket.close(
              TOO_MANY_SOCKETS_CLOSE,
              reason(`Too many live connections for this account (${max}); close another tab or device`),
            );
            return;
          }
          connection.sessionId = auth.sessionId;
          const pending = held ?? [];
          held = undefined;
          for (const frame of pending) connection.send(frame);
          app.socketBus.verified(connection);
          const ctx: FrameContext = {
            userId: auth.userId,
            setSubscription({ streams, symbols, candles, books }) {
              connection.streams = streams;
              if (symbols) connection.symbols = symbols;
              if (candles) connection.candles = candles;
              if (books) connection.books = books;
              app.socketBus.changed(connection);
            },
            // Without live streams no candle flows anyway; the list is not checked then
            unlisted: async (symbols: readonly string[]) =>
              // Checked on the market the socket watches (its user's environment)
              app.liveStreams ? app.liveStreams.unlisted(symbols, connection.environment) : [],
            logError(err: unknown, method: string) {
              request.log.error({ err, method }, 'socket request failed');
            },
          };
          const badFrames = new BadFrameLog(
            (fields, message) => request.log.warn(fields, message),
            () => app.clock.now().getTime(),
          );
          onText = (text) => {
            handleFrame(text, ctx, app.socketTools).then(
              (reply) => {
                const bad = reply === undefined ? null : BAD_FRAME.exec(reply);
                if (bad) badFrames.note(-Number(bad[1]));
                if (reply !== undefined && socket.readyState === socket.OPEN) socket.send(reply);
              },
              (err: unknown) => ctx.logError(err, 'unknown'),
            );
          };
          for (const text of early.splice(0)) onText(text);
        },
        (err: unknown) => {
          remove();
          held = undefined;
          if (err instanceof HttpError) {
            socket.close(CLOSE_CODES.unauthorized, reason(err.message));
            return;
          }
          request.log.error({ err }, 'socket authentication failed');
          socket.close(1011, 'Server error while checking the token; try again shortly');
        },
      );
    },
  );
}
