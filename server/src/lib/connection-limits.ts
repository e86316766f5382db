import type { Server } from 'node:net';
import { type Clock, systemClock } from './clock';

export interface ConnectionLimits {
  /** A request's headers must arrive within this, ms */
  headersTimeoutMs: number;
  /** The whole request, body included, must arrive within this, ms (the body deadline) */
  requestTimeoutMs: number;
  /** A connection with no traffic either way for this long is closed, ms */
  idleTimeoutMs: number;
  /** Open connections one client address may hold; more are closed at once */
  maxConnectionsPerIp: number;
}

/**
 * Node's `http.Server` options for the deadlines: the headers and the whole request (body included) each have
 * one, checked often enough that a deadline is kept to within a quarter of the shorter one (Node checks every
 * 30 s by default, which would let a slow upload hold its socket a minute past a 30 s deadline)
 */
export function httpServerDeadlines(limits: ConnectionLimits): {
  headersTimeout: number;
  requestTimeout: number;
  connectionsCheckingInterval: number;
} {
  const headersTimeout = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs);
  return {
    headersTimeout,
    requestTimeout: limits.requestTimeoutMs,
    connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(headersTimeout / 4))),
  };
}

/**
 * Caps the open connections per client address: one client opening a thousand slow uploads takes its own
 * `max` sockets and no more, so the server keeps file descriptors and attention for everyone else. The address
 * is the socket's peer: behind a reverse proxy every client is the proxy, so the proxy must keep its own per-client
 * cap. `onRefused` hears of the first refusal of an address in each minute of `clock` (for a log line, not one per
 * socket)
 */
export function capConnectionsPerIp(
  server: Server,
  max: number,
  onRefused: (address: string, open: number) => void = () => {},
  clock: Clock = systemClock,
): void {
  const open = new Map<string, number>();
  const lastReported = new Map<string, number>();
  server.on('connection', (socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    const count = open.get(address) ?? 0;
    if (count >= max) {
      socket.destroy();
      const now = clock.now().getTime();
      if ((lastReported.get(address) ?? 0) <= now - 60_000) {
        lastReported.set(address, now);
        onRefused(address, count);
      }
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else {
        open.delete(address);
        lastReported.delete(address);
      }
    });
  });
}
