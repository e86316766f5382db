import { HealthSchema } from '@kestrel/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from './app';
import { loadConfig } from './config';

describe('server app', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => close?.());

  it('answers the health route with the contract shape', async () => {
    const app = await buildApp(loadConfig({ KESTREL_LOG_LEVEL: 'silent' }));
    close = () => app.close();
    const res = await app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(res.statusCode).toBe(200);
    expect(HealthSchema.parse(res.json()).status).toBe('ok');
  });

  it('allows CORS only for configured shell origins', async () => {
    const app = await buildApp(
      loadConfig({ KESTREL_LOG_LEVEL: 'silent', KESTREL_CORS_ORIGINS: 'http://shell.example' }),
    );
    close = () => app.close();
    const allowed = await app.inject({ url: '/api/v1/health', headers: { origin: 'http://shell.example' } });
    expect(allowed.headers['access-control-allow-origin']).toBe('http://shell.example');
    const denied = await app.inject({ url: '/api/v1/health', headers: { origin: 'http://evil.example' } });
    expect(denied.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('rejects a malformed configuration with a message naming the key', () => {
    expect(() => loadConfig({ KESTREL_PORT: 'eighty' })).toThrow(/port/);
  });
});
