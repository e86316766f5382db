import { isAbsolute } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

describe('loadConfig', () => {
  it('has embedded defaults for everything', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 8000,
      corsOrigins: ['http://127.0.0.1:3000', 'http://localhost:3000'],
      logLevel: 'info',
    });
    expect(isAbsolute(config.dataDir)).toBe(true);
    expect(config.dataDir.endsWith('.data')).toBe(true);
    expect(config.databaseUrl).toBeUndefined();
  });

  it('reads the documented variables', () => {
    const config = loadConfig({
      KESTREL_PORT: '9100',
      KESTREL_HOST: '0.0.0.0',
      KESTREL_CORS_ORIGINS: 'http://a.example, http://b.example',
      KESTREL_DATA_DIR: '/var/lib/kestrel',
      DATABASE_URL: 'postgres://u@db:5432/k',
      KESTREL_LOG_LEVEL: 'warn',
    });
    expect(config).toMatchObject({
      port: 9100,
      host: '0.0.0.0',
      corsOrigins: ['http://a.example', 'http://b.example'],
      dataDir: '/var/lib/kestrel',
      databaseUrl: 'postgres://u@db:5432/k',
      logLevel: 'warn',
    });
  });

  it('rejects a malformed configuration with a message naming the key', () => {
    expect(() => loadConfig({ KESTREL_PORT: 'eighty' })).toThrow(/port/);
    expect(() => loadConfig({ KESTREL_LOG_LEVEL: 'loud' })).toThrow(/logLevel/);
  });

  it('never echoes a secret-bearing value in its error', () => {
    const url = 'mysql://admin:hunter2@db/x';
    expect(() => loadConfig({ DATABASE_URL: url })).toThrow(/databaseUrl: must start with postgres/);
    try {
      loadConfig({ DATABASE_URL: url });
    } catch (err) {
      expect(String(err)).not.toContain('hunter2');
    }
  });
});
