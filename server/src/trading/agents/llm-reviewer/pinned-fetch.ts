import http from 'node:http';
import https from 'node:https';
import type { WebhookTarget } from '../../../core/notifications/webhook-target';

/** The largest answer read from a model server; a larger one is cut off and fails the review */
export const LLM_RESPONSE_MAX_BYTES = 1024 * 1024;

function abortError(): Error {
  const err = new Error('The request was aborted');
  err.name = 'AbortError';
  return err;
}

/**
 * A `fetch` for the OpenAI client that connects only to the address checked by the SSRF guard (the URL's host goes
 * into the Host header and TLS's SNI and certificate check), as webhooks do: a DNS answer that changes between the
 * check and the call cannot send the prompt and key elsewhere. Redirects are not followed (the SDK sees the 3xx);
 * the whole answer is read before it resolves, so the SDK's timeout (the abort signal) covers the body too
 */
export function pinnedFetch(target: WebhookTarget) {
  return (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.host !== target.url.host || url.protocol !== target.url.protocol)
      return Promise.reject(new Error('the model client asked for another host than the checked base URL'));
    const isHttps = url.protocol === 'https:';
    const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const headers: Record<string, string> = { host: url.host };
    new Headers(init.headers).forEach((value, key) => {
      headers[key] = value;
    });
    const body = typeof init.body === 'string' ? init.body : undefined;
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    const options: https.RequestOptions = {
      method: init.method ?? 'GET',
      host: target.address.address,
      family: target.address.family,
      port: url.port || (isHttps ? 443 : 80),
      path: `${url.pathname}${url.search}`,
      headers,
      // No pooled sockets: each call connects to the address it just checked
      agent: false,
      ...(isHttps && !/^[\d.]+$|:/.test(hostname) ? { servername: hostname } : {}),
    };
    return new Promise<Response>((resolve, reject) => {
      const signal = init.signal;
      if (signal?.aborted) return reject(abortError());
      const request = (isHttps ? https : http).request(options, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > LLM_RESPONSE_MAX_BYTES) {
            request.destroy();
            reject(new Error(`the model server's answer is larger than ${LLM_RESPONSE_MAX_BYTES} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => {
          const answer = new Headers();
          for (const [key, value] of Object.entries(res.headers)) {
            if (value === undefined) continue;
            for (const v of Array.isArray(value) ? value : [value]) answer.append(key, v);
          }
          const status = res.statusCode ?? 502;
          // A Response cannot carry a body with these statuses
          const empty = status === 204 || status === 205 || status === 304;
          resolve(new Response(empty ? null : Buffer.concat(chunks), { status, headers: answer }));
        });
        res.on('error', reject);
      });
      const onAbort = () => {
        request.destroy();
        reject(abortError());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      request.on('close', () => signal?.removeEventListener('abort', onAbort));
      request.on('error', reject);
      request.end(body);
    });
  };
}
