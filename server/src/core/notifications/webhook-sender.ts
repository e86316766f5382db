import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { Clock } from '../../lib/clock';
import type { WebhookTarget } from './webhook-target';

/** A receiver gets this long to answer (headers and the excerpt read) */
export const WEBHOOK_TIMEOUT_MS = 5_000;
/** How much of the receiver's answer is kept for the delivery log */
export const RESPONSE_EXCERPT_CHARS = 300;

/** `sha256=<hex HMAC-SHA256 of "<timestamp>.<body>">`, the X-Kestrel-Signature header */
export function signWebhook(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

export interface SendRequest {
  target: WebhookTarget;
  body: string;
  secret: string;
  event: string;
  deliveryId: string;
  /** Seconds since the epoch, from the app's clock */
  timestamp: number;
  /** Times the answer deadline (`WEBHOOK_TIMEOUT_MS`) */
  clock: Clock;
}

export interface SendResult {
  /** null when no answer came */
  statusCode: number | null;
  durationMs: number;
  /** Why the attempt failed; null on a 2xx */
  error: string | null;
  responseExcerpt: string | null;
}

/**
 * One POST. It connects to the address that was checked (the URL's host goes only into the Host header and TLS's
 * SNI and certificate check), so a DNS answer changing between check and connect cannot redirect it. Redirects
 * are not followed: a 3xx is a failed attempt
 */
export function sendWebhook(req: SendRequest): Promise<SendResult> {
  const { url, address } = req.target;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const isHttps = url.protocol === 'https:';
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const options: https.RequestOptions = {
    method: 'POST',
    host: address.address,
    family: address.family,
    port: url.port || (isHttps ? 443 : 80),
    path: `${url.pathname}${url.search}`,
    headers: {
      host: url.host,
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(req.body),
      'user-agent': 'Kestrel-Webhooks/1',
      'x-kestrel-timestamp': String(req.timestamp),
      'x-kestrel-signature': signWebhook(req.secret, req.timestamp, req.body),
      'x-kestrel-event': req.event,
      'x-kestrel-delivery': req.deliveryId,
    },
    // No pooled sockets: each delivery connects to the address it just checked
    agent: false,
    ...(isHttps && !/^[\d.]+$|:/.test(hostname) ? { servername: hostname } : {}),
  };
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const finish = (r: Omit<SendResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      timer.cancel();
      resolve({ ...r, durationMs: elapsed() });
    };
    const request = (isHttps ? https : http).request(options, (res) => {
      const statusCode = res.statusCode ?? null;
      let excerpt = '';
      res.setEncoding('utf8');
      const done = () => {
        const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;
        const redirect = statusCode !== null && statusCode >= 300 && statusCode < 400;
        finish({
          statusCode,
          error: ok
            ? null
            : redirect
              ? `Answered ${statusCode} (a redirect, which is not followed)`
              : `Answered ${statusCode}`,
          responseExcerpt: excerpt === '' ? null : excerpt.slice(0, RESPONSE_EXCERPT_CHARS),
        });
        res.destroy();
      };
      res.on('data', (chunk: string) => {
        excerpt += chunk;
        // The rest of the answer is of no interest: stop reading
        if (excerpt.length >= RESPONSE_EXCERPT_CHARS) done();
      });
      res.on('end', done);
      res.on('error', done);
    });
    const timer = req.clock.after(WEBHOOK_TIMEOUT_MS, () => {
      finish({
        statusCode: null,
        error: `No answer within ${WEBHOOK_TIMEOUT_MS / 1000} s`,
        responseExcerpt: null,
      });
      request.destroy();
    });
    request.on('error', (err: NodeJS.ErrnoException) => {
      finish({
        statusCode: null,
        error: `Could not deliver: ${err.code ?? err.message}`,
        responseExcerpt: null,
      });
    });
    request.end(req.body);
  });
}
