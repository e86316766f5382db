import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../config';
import { resolveExchangeEndpoints } from './exchange-config';

describe('exchange endpoints from the environment', () => {
  it('defaults to the local simulator on port 8100, wallet host included', () => {
    expect(resolveExchangeEndpoints({})).toEqual({
      env: 'simulator',
      restUrl: 'http://127.0.0.1:8100',
      wsUrl: 'ws://127.0.0.1:8100',
      walletUrl: 'http://127.0.0.1:8100',
      weightLimit: 2400,
    });
    expect(resolveExchangeEndpoints({ KESTREL_SIM_PORT: '9123' }).restUrl).toBe('http://127.0.0.1:9123');
  });

  it('knows mainnet and testnet; testnet has no wallet host', () => {
    expect(resolveExchangeEndpoints({ KESTREL_EXCHANGE_ENV: 'mainnet' })).toEqual({
      env: 'mainnet',
      restUrl: 'https://fapi.binance.com',
      wsUrl: 'wss://fstream.binance.com',
      walletUrl: 'https://api.binance.com',
      weightLimit: 2400,
    });
    const testnet = resolveExchangeEndpoints({ KESTREL_EXCHANGE_ENV: 'testnet' });
    expect(testnet.restUrl).toBe('https://demo-fapi.binance.com');
    expect(testnet.walletUrl).toBeUndefined();
  });

  it('lets URLs be overridden; a simulator REST override moves its wallet host along', () => {
    const e = resolveExchangeEndpoints({
      KESTREL_EXCHANGE_BASE_URL: 'http://10.0.0.5:4567/',
      KESTREL_EXCHANGE_WS_URL: 'ws://10.0.0.5:4567',
    });
    expect(e).toMatchObject({
      restUrl: 'http://10.0.0.5:4567',
      walletUrl: 'http://10.0.0.5:4567',
      wsUrl: 'ws://10.0.0.5:4567',
    });
    // The simulator serves streams on its REST port: its stream base follows a REST override
    expect(resolveExchangeEndpoints({ KESTREL_EXCHANGE_BASE_URL: 'http://127.0.0.1:4999' }).wsUrl).toBe(
      'ws://127.0.0.1:4999',
    );
  });

  it('says what is wrong with a bad value', () => {
    expect(() => loadConfig({ KESTREL_EXCHANGE_ENV: 'prod' })).toThrow(
      'Invalid server configuration: KESTREL_EXCHANGE_ENV must be simulator, testnet or mainnet',
    );
    expect(() => loadConfig({ KESTREL_EXCHANGE_BASE_URL: 'fapi.binance.com' })).toThrow(
      /KESTREL_EXCHANGE_BASE_URL must be/,
    );
    expect(() => loadConfig({ KESTREL_SIM_PORT: 'x' })).toThrow(/KESTREL_SIM_PORT must be a port number/);
    expect(() => loadConfig({ KESTREL_EXCHANGE_WEIGHT_LIMIT: '1.5' })).toThrow(
      'Invalid server configuration: KESTREL_EXCHANGE_WEIGHT_LIMIT must be a whole number of request weight a minute',
    );
  });

  it("takes the minute's request weight from KESTREL_EXCHANGE_WEIGHT_LIMIT (a simulator started to grant it)", () => {
    expect(resolveExchangeEndpoints({ KESTREL_EXCHANGE_WEIGHT_LIMIT: '24000' }).weightLimit).toBe(24000);
  });
});
