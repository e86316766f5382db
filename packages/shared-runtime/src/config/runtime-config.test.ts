import { describe, expect, it } from 'vitest';
import { getRuntimeConfig, loadRuntimeConfig, provideRuntimeConfig } from './runtime-config';

const valid = {
  apiBaseUrl: 'http://127.0.0.1:8000',
  socketBaseUrl: 'ws://127.0.0.1:8000/ws',
  remotes: {
    dashboard: 'http://127.0.0.1:3001/mf-manifest.json',
    bots: 'http://127.0.0.1:3002/mf-manifest.json',
    exchange_connect: 'http://127.0.0.1:3003/mf-manifest.json',
    account: 'http://127.0.0.1:3004/mf-manifest.json',
  },
};

const jsonResponse = (body: unknown, status = 200) =>
  (async () => new Response(JSON.stringify(body), { status })) as unknown as typeof fetch;

describe('runtime config', () => {
  it('publishes a valid config with defaults filled in', async () => {
    const config = await loadRuntimeConfig('/config.json', jsonResponse(valid));
    expect(config.remoteLoadTimeoutMs).toBe(10_000);
    expect(getRuntimeConfig().remotes.bots).toBe(valid.remotes.bots);
  });

  it('names the missing remote when the config lacks one', () => {
    const { account: _omitted, ...remotes } = valid.remotes;
    expect(() => provideRuntimeConfig({ ...valid, remotes })).toThrow(/remotes\.account/);
  });

  it('rejects a non-websocket socket URL and unknown keys', () => {
    expect(() => provideRuntimeConfig({ ...valid, socketBaseUrl: 'http://x' })).toThrow(/socketBaseUrl/);
    expect(() => provideRuntimeConfig({ ...valid, extra: 1 })).toThrow(/extra/);
  });

  it('says which URL failed when the config cannot be fetched', async () => {
    await expect(loadRuntimeConfig('/missing.json', jsonResponse({}, 404))).rejects.toThrow(
      'Could not fetch runtime configuration from /missing.json: HTTP 404',
    );
  });
});
