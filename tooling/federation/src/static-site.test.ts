import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { rspack } from '@rspack/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrecompressPlugin } from './precompress-plugin.mjs';
import { serveStaticSite } from './static-site.mjs';

const CHUNK = 'main.0123abcd.js';
let dist: string;
let site: Awaited<ReturnType<typeof serveStaticSite>>;
let chunkText: string;

/** A real production build of a small entry, with the plugin, into a temporary dist/ */
async function buildWithPrecompress(dir: string) {
  const entry = join(dir, 'entry.js');
  // Text that repeats compresses well and is over the plugin's 1 KB floor
  await writeFile(
    entry,
    `console.log(${JSON.stringify(Array.from({ length: 200 }, (_, i) => `line ${i}`))}.join());`,
  );
  const compiler = rspack({
    mode: 'production',
    context: dir,
    entry: { main: entry },
    output: { path: join(dir, 'dist'), filename: '[name].js' },
    plugins: [new PrecompressPlugin()],
  });
  await new Promise<void>((ok, fail) =>
    compiler.run((error, stats) => {
      if (error || stats?.hasErrors()) fail(error ?? new Error(stats?.toString()));
      else compiler.close(() => ok());
    }),
  );
  return join(dir, 'dist');
}

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'static-site-'));
  dist = await buildWithPrecompress(dir);
  // Serve the built file under a content-hashed name, as the apps' builds name their chunks
  chunkText = await readFile(join(dist, 'main.js'), 'utf8');
  for (const suffix of ['', '.br', '.gz']) {
    await writeFile(join(dist, `${CHUNK}${suffix}`), await readFile(join(dist, `main.js${suffix}`)));
  }
  await writeFile(join(dist, 'index.html'), '<!doctype html><title>shell</title>');
  site = await serveStaticSite({ root: dist, port: 0, spa: true, json: { '/config.json': { api: 'x' } } });
});

afterAll(async () => {
  await site?.close();
  if (dist) await rm(join(dist, '..'), { recursive: true, force: true });
});

describe('PrecompressPlugin', () => {
  it('writes brotli and gzip copies that decompress to the emitted file', async () => {
    const original = await readFile(join(dist, 'main.js'));
    expect(brotliDecompressSync(await readFile(join(dist, 'main.js.br')))).toEqual(original);
    expect(gunzipSync(await readFile(join(dist, 'main.js.gz')))).toEqual(original);
  });
});

describe('serveStaticSite', () => {
  it('sends the brotli copy to a browser that accepts it, gzip to one that only takes gzip', async () => {
    const br = await fetch(`${site.url}/${CHUNK}`, { headers: { 'Accept-Encoding': 'gzip, br' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toBe('Accept-Encoding');
    // fetch decodes the body: the page gets the same script whichever encoding travelled
    expect(await br.text()).toBe(chunkText);
    const gz = await fetch(`${site.url}/${CHUNK}`, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(await gz.text()).toBe(chunkText);
  });

  it('caches content-hashed chunks for a year and revalidates entry files by ETag', async () => {
    const chunk = await fetch(`${site.url}/${CHUNK}`);
    expect(chunk.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(chunk.headers.get('content-type')).toMatch(/javascript/);
    const page = await fetch(`${site.url}/index.html`);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const etag = page.headers.get('etag');
    expect(etag).toBeTruthy();
    const again = await fetch(`${site.url}/index.html`, { headers: { 'If-None-Match': etag ?? '' } });
    expect(again.status).toBe(304);
  });

  it('answers client-side routes with the page, a missing file with 404, and config.json from memory', async () => {
    const route = await fetch(`${site.url}/kestrel/agent-42`);
    expect(route.status).toBe(200);
    expect(await route.text()).toContain('<title>shell</title>');
    expect((await fetch(`${site.url}/main.deadbeef.js`)).status).toBe(404);
    const config = await fetch(`${site.url}/config.json`);
    expect(await config.json()).toEqual({ api: 'x' });
    expect(config.headers.get('cache-control')).toBe('no-cache');
  });

  it('lets any origin fetch its files and refuses writes', async () => {
    const chunk = await fetch(`${site.url}/${CHUNK}`, { headers: { Origin: 'http://127.0.0.1:3000' } });
    expect(chunk.headers.get('access-control-allow-origin')).toBe('*');
    const post = await fetch(`${site.url}/${CHUNK}`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('never serves a file outside its folder', async () => {
    const res = await fetch(`${site.url}/..%2f..%2f..%2f..%2f..%2fetc%2fpasswd`);
    // A page path it does not know: the shell's page (client-side routes), never the file
    expect(await res.text()).not.toContain('root:');
  });
});

describe('serveStaticSite with a content security policy', () => {
  it('allows the configured origins and the page’s own inline script, forbids framing, sends it with every page', async () => {
    await writeFile(
      join(dist, 'index.html'),
      '<!doctype html><script>document.documentElement.classList.add("dark")</script><title>shell</title>',
    );
    const guarded = await serveStaticSite({
      root: dist,
      port: 0,
      spa: true,
      csp: { scripts: ['http://127.0.0.1:3001'], connect: ['http://127.0.0.1:8000', 'ws://127.0.0.1:8000'] },
    });
    try {
      const page = await fetch(`${guarded.url}/dashboard`);
      const policy = page.headers.get('content-security-policy') ?? '';
      const directive = (name: string) => policy.split('; ').find((d) => d.startsWith(`${name} `));
      const hash = createHash('sha256')
        .update('document.documentElement.classList.add("dark")')
        .digest('base64');
      expect(directive('script-src')).toBe(`script-src 'self' http://127.0.0.1:3001 'sha256-${hash}'`);
      expect(directive('connect-src')).toContain('ws://127.0.0.1:8000');
      expect(directive('frame-ancestors')).toBe("frame-ancestors 'none'");
      expect(directive('object-src')).toBe("object-src 'none'");
      expect(page.headers.get('x-frame-options')).toBe('DENY');
    } finally {
      await guarded.close();
    }
  });

  it('asks for config.json and the policy on every request when given functions (a remote redeployed live)', async () => {
    let remoteOrigin = 'http://127.0.0.1:3001';
    const live = await serveStaticSite({
      root: dist,
      port: 0,
      spa: true,
      json: { '/config.json': () => ({ remotes: { dashboard: `${remoteOrigin}/mf-manifest.json` } }) },
      csp: () => ({ scripts: [remoteOrigin], connect: [] }),
    });
    try {
      const read = async () => {
        const res = await fetch(`${live.url}/config.json`);
        const config = (await res.json()) as { remotes: { dashboard: string } };
        return { config, policy: res.headers.get('content-security-policy') ?? '' };
      };
      const before = await read();
      remoteOrigin = 'http://127.0.0.1:3901';
      const after = await read();
      expect(before.config.remotes.dashboard).toBe('http://127.0.0.1:3001/mf-manifest.json');
      expect(after.config.remotes.dashboard).toBe('http://127.0.0.1:3901/mf-manifest.json');
      expect(after.policy).toContain("script-src 'self' http://127.0.0.1:3901");
      expect(after.policy).not.toContain('3001');
    } finally {
      await live.close();
    }
  });
});
