// @ts-check
/**
 * Serves one built app as its own static site, the way it is deployed: the shell as a single-page app, each remote
 * as plain files any origin may fetch. Cache rules matter for independent deploys: entry files (index.html,
 * config.json, mf-manifest.json, remoteEntry.js) are revalidated on every load so a redeployed remote is picked up
 * at once; content-hashed chunks never change and are cached for a year.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';

const CONTENT_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

const HASHED = /\.[0-9a-f]{8}\.(js|css)(\.map)?$/;

/** @param {string} path */
function cacheControl(path) {
  return HASHED.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache';
}

/**
 * @param {object} options
 * @param {string} options.root folder of the built app (its dist/)
 * @param {number} options.port 0 picks a free port
 * @param {string} [options.host]
 * @param {boolean} [options.spa] answer unknown paths with index.html (the shell's client-side routes)
 * @param {Record<string, unknown>} [options.json] paths answered with this JSON instead of a file (config.json)
 * @returns {Promise<{ url: string, port: number, close: () => Promise<void> }>}
 */
export async function serveStaticSite({ root, port, host = '127.0.0.1', spa = false, json = {} }) {
  const base = resolve(root);
  const server = createServer(async (req, res) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    // Remotes' manifests and chunks are fetched from the shell's origin
    res.setHeader('Access-Control-Allow-Origin', '*');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    let pathname;
    try {
      pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://site').pathname);
    } catch {
      res.writeHead(400).end('Bad request path');
      return;
    }
    if (Object.hasOwn(json, pathname)) {
      res.writeHead(200, { 'Content-Type': CONTENT_TYPES['.json'], 'Cache-Control': 'no-cache' });
      res.end(req.method === 'HEAD' ? undefined : JSON.stringify(json[pathname]));
      return;
    }
    let file = join(base, normalize(pathname));
    if (file !== base && !file.startsWith(base + sep)) {
      res.writeHead(403).end();
      return;
    }
    let info = await stat(file).catch(() => null);
    if (info?.isDirectory()) {
      file = join(file, 'index.html');
      info = await stat(file).catch(() => null);
    }
    const wantsPage = !extname(pathname) || (req.headers.accept ?? '').includes('text/html');
    if (!info && spa && wantsPage) {
      file = join(base, 'index.html');
      info = await stat(file).catch(() => null);
    }
    if (!info?.isFile()) {
      res.writeHead(404, { 'Content-Type': CONTENT_TYPES['.txt'] }).end('Not found');
      return;
    }
    res.writeHead(200, {
      'Content-Type':
        CONTENT_TYPES[/** @type {keyof typeof CONTENT_TYPES} */ (extname(file))] ??
        'application/octet-stream',
      'Content-Length': info.size,
      'Cache-Control': cacheControl(file),
    });
    if (req.method === 'HEAD') res.end();
    else createReadStream(file).pipe(res);
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
