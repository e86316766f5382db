// @ts-check
/**
 * Serves one built app as its own static site, the way it is deployed: the shell as a single-page app, each remote
 * as plain files any origin may fetch. Cache rules matter for independent deploys: entry files (index.html,
 * config.json, mf-manifest.json, remoteEntry.js) are revalidated on every load (ETag, 304 when unchanged) so a
 * redeployed remote is picked up at once; content-hashed chunks never change and are cached for a year. Files are
 * sent in the build's precompressed copies (`.br`, `.gz`, see precompress-plugin.mjs) when the browser accepts them.
 *
 * sirv does the file work (ETags, encodings, ranges); it reads the folder's listing once at start, so a site
 * serves the build that was there when it started: a redeploy is a new folder (or a restart), as with any CDN.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import sirv from 'sirv';

const JSON_TYPE = 'application/json; charset=utf-8';
const HASHED = /\.[0-9a-f]{8}\.(js|css)(\.map)?$/;

/**
 * @param {object} options
 * @param {string} options.root folder of the built app (its dist/)
 * @param {number} options.port 0 picks a free port
 * @param {string} [options.host]
 * @param {boolean} [options.spa] answer unknown page paths with index.html (the shell's client-side routes)
 * @param {Record<string, unknown | (() => unknown)>} [options.json] paths answered with this JSON instead of a
 *   file (config.json); a function is asked on every request, so a deployment can change the answer live
 * @param {CspOrigins | (() => CspOrigins)} [options.csp] origins the app's pages may load from and talk to; sends a
 *   Content Security Policy built from them (see `contentSecurityPolicy`); a function is asked on every request
 * @returns {Promise<{ url: string, port: number, close: () => Promise<void> }>}
 */
export async function serveStaticSite({ root, port, host = '127.0.0.1', spa = false, json = {}, csp }) {
  const hashes = inlineScriptHashes(root);
  const fixedPolicy = csp && typeof csp !== 'function' ? contentSecurityPolicy(csp, hashes) : undefined;
  const policyNow = () => (typeof csp === 'function' ? contentSecurityPolicy(csp(), hashes) : fixedPolicy);
  const files = sirv(root, {
    etag: true,
    brotli: true,
    gzip: true,
    // Client-side routes have no extension; a missing file with one (a stale chunk) stays a 404
    single: spa,
    setHeaders: (res, pathname) =>
      res.setHeader(
        'Cache-Control',
        HASHED.test(pathname) ? 'public, max-age=31536000, immutable' : 'no-cache',
      ),
  });
  const server = createServer((req, res) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    // No site may frame the app (clickjacking): CSP's frame-ancestors, and the older header for older browsers
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
    const policy = policyNow();
    if (policy) res.setHeader('Content-Security-Policy', policy);
    // Remotes' manifests and chunks are fetched from the shell's origin
    res.setHeader('Access-Control-Allow-Origin', '*');
    // ...and their sizes and timings are readable there (Resource Timing), for the shell's own measurements
    res.setHeader('Timing-Allow-Origin', '*');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    let pathname;
    try {
      pathname = new URL(req.url ?? '/', 'http://site').pathname;
    } catch {
      res.writeHead(400).end('Bad request path');
      return;
    }
    if (Object.hasOwn(json, pathname)) {
      res.writeHead(200, { 'Content-Type': JSON_TYPE, 'Cache-Control': 'no-cache' });
      const body = json[pathname];
      res.end(req.method === 'HEAD' ? undefined : JSON.stringify(typeof body === 'function' ? body() : body));
      return;
    }
    files(req, res, () => {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found');
    });
  });
  await new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => ok(undefined));
  });
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  return {
    url: `http://${host}:${actualPort}`,
    port: actualPort,
    close: () => new Promise((ok) => server.close(() => ok(undefined))),
  };
}

/**
 * @typedef {object} CspOrigins
 * @property {string[]} scripts origins whose scripts and stylesheets the pages load (the remotes' sites)
 * @property {string[]} connect origins the pages fetch from or open sockets to (the API, its socket, the remotes'
 *   manifests)
 */

/**
 * The pages' Content Security Policy: scripts only from this site, the configured remotes and the page's own
 * inline scripts (by hash), data only to the configured origins, no plugins, no framing. The refresh token the spec
 * keeps in local storage is only as safe as the scripts a page runs, so nothing else may run.
 * Inline style attributes stay allowed: React's `style` props and the chart library set them.
 * @param {CspOrigins} origins
 * @param {string[]} scriptHashes `'sha256-…'` sources of the page's inline scripts
 */
export function contentSecurityPolicy({ scripts, connect }, scriptHashes = []) {
  const list = (/** @type {string[]} */ ...sources) => [...new Set(sources)].join(' ');
  return [
    "default-src 'self'",
    `script-src ${list("'self'", ...scripts, ...scriptHashes)}`,
    `style-src ${list("'self'", "'unsafe-inline'", ...scripts)}`,
    `connect-src ${list("'self'", ...connect, ...scripts)}`,
    `img-src 'self' data: blob:`,
    `font-src ${list("'self'", 'data:', ...scripts)}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * Hashes of the inline scripts in the site's index.html (the theme script that runs before first paint), so the
 * policy allows exactly them and no other inline script
 * @param {string} root
 */
function inlineScriptHashes(root) {
  let page;
  try {
    page = readFileSync(join(root, 'index.html'), 'utf8');
  } catch {
    return [];
  }
  return [...page.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    ([, body]) =>
      `'sha256-${createHash('sha256')
        .update(body ?? '')
        .digest('base64')}'`,
  );
}
