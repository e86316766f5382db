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
import { createServer } from 'node:http';
import sirv from 'sirv';

const JSON_TYPE = 'application/json; charset=utf-8';
const HASHED = /\.[0-9a-f]{8}\.(js|css)(\.map)?$/;

/**
 * @param {object} options
 * @param {string} options.root folder of the built app (its dist/)
 * @param {number} options.port 0 picks a free port
 * @param {string} [options.host]
 * @param {boolean} [options.spa] answer unknown page paths with index.html (the shell's client-side routes)
 * @param {Record<string, unknown>} [options.json] paths answered with this JSON instead of a file (config.json)
 * @returns {Promise<{ url: string, port: number, close: () => Promise<void> }>}
 */
export async function serveStaticSite({ root, port, host = '127.0.0.1', spa = false, json = {} }) {
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
    // Remotes' manifests and chunks are fetched from the shell's origin
    res.setHeader('Access-Control-Allow-Origin', '*');
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
      res.end(req.method === 'HEAD' ? undefined : JSON.stringify(json[pathname]));
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
