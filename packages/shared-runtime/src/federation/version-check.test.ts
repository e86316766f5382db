// @vitest-environment node
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertRemoteCompatible, RemoteIncompatibleError, satisfiesRange } from './version-check';

describe('satisfiesRange', () => {
  it.each([
    ['0.1.4', '^0.1.0', true],
    ['0.2.0', '^0.1.0', false],
    ['0.0.3', '^0.0.3', true],
    ['0.0.4', '^0.0.3', false],
    ['1.9.0', '^1.2.0', true],
    ['2.0.0', '^1.2.0', false],
    ['1.1.0', '^1.2.0', false],
    ['1.2.9', '~1.2.3', true],
    ['1.3.0', '~1.2.3', false],
    ['1.2.3', '1.2.3', true],
    ['1.2.4', '1.2.3', false],
    ['1.2', '^1.2.0', false],
  ])('%s in %s: %s', (version, range, expected) => {
    expect(satisfiesRange(version, range)).toBe(expected);
  });
});

describe('assertRemoteCompatible, against a served build-info.json', () => {
  let server: Server;
  let base: string;
  let buildInfo: unknown;

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/build-info.json' && buildInfo) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(buildInfo));
      } else res.writeHead(404).end();
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((ok) => server.close(() => ok())));

  const built = (sharedRuntime: string | null) => ({
    app: 'dashboard',
    version: '0.1.0',
    sharedRuntime,
    commit: 'abc123',
    builtAt: '2026-11-25T12:00:00.000Z',
    label: null,
  });

  it('lets a remote built for a runtime in range start', async () => {
    buildInfo = built('0.1.0');
    await expect(
      assertRemoteCompatible('dashboard', `${base}/mf-manifest.json`, '^0.1.0'),
    ).resolves.toBeUndefined();
  });

  it('refuses one built for another runtime, saying which, what is expected and that it did not start', async () => {
    buildInfo = built('0.2.0');
    const check = assertRemoteCompatible('dashboard', `${base}/mf-manifest.json`, '^0.1.0');
    await expect(check).rejects.toBeInstanceOf(RemoteIncompatibleError);
    await expect(check).rejects.toThrow(
      /built for version 0\.2\.0 .* expects \^0\.1\.0\. It was not started/,
    );
  });

  it('leaves a build that describes nothing (an older build, no build-info.json) to the federation check', async () => {
    buildInfo = undefined;
    await expect(
      assertRemoteCompatible('dashboard', `${base}/mf-manifest.json`, '^0.1.0'),
    ).resolves.toBeUndefined();
  });
});
