import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import {
  type ExchangeTarget,
  MAINNET_NOT_CONFIGURED,
  resolveExchangeEndpoints,
  resolveExchangeTargets,
} from './exchange-config';

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

describe('exchange targets per trading environment (issue 23)', () => {
  const endpointsOf = (t: ExchangeTarget) => (t.configured ? t.endpoints : undefined);

  it('embedded: testnet is the simulator, mainnet is not configured and says how to enable it', () => {
    const { targets, notices } = resolveExchangeTargets({});
    expect(targets.testnet).toMatchObject({ configured: true, kind: 'simulator', label: 'Simulator' });
    expect(endpointsOf(targets.testnet)?.restUrl).toBe('http://127.0.0.1:8100');
    expect(targets.mainnet).toEqual({
      environment: 'mainnet',
      configured: false,
      reason: MAINNET_NOT_CONFIGURED,
    });
    expect(notices).toEqual([]);
  });

  it('KESTREL_TESTNET=1 makes testnet Binance’s testnet; KESTREL_MAINNET=1 adds Binance mainnet', () => {
    const { targets } = resolveExchangeTargets({ KESTREL_TESTNET: '1', KESTREL_MAINNET: '1' });
    expect(targets.testnet).toMatchObject({ kind: 'binance-testnet', label: 'Testnet' });
    expect(endpointsOf(targets.testnet)).toMatchObject({
      restUrl: 'https://demo-fapi.binance.com',
      walletUrl: undefined,
    });
    expect(targets.mainnet).toMatchObject({ kind: 'binance-mainnet', label: 'LIVE mainnet' });
    expect(endpointsOf(targets.mainnet)).toMatchObject({
      restUrl: 'https://fapi.binance.com',
      wsUrl: 'wss://fstream.binance.com',
      walletUrl: 'https://api.binance.com',
    });
  });

  it('a stand-in REST URL moves that environment’s stream and wallet hosts too: nothing reaches the real Binance', () => {
    const { targets } = resolveExchangeTargets({
      KESTREL_MAINNET: '1',
      KESTREL_MAINNET_BASE_URL: 'http://127.0.0.1:4001/',
      KESTREL_TESTNET_BASE_URL: 'http://127.0.0.1:4000',
    });
    expect(endpointsOf(targets.mainnet)).toMatchObject({
      restUrl: 'http://127.0.0.1:4001',
      wsUrl: 'ws://127.0.0.1:4001',
      walletUrl: 'http://127.0.0.1:4001',
    });
    expect(endpointsOf(targets.testnet)?.restUrl).toBe('http://127.0.0.1:4000');
  });

  it('reads the older KESTREL_EXCHANGE_ENV the new way and says so', () => {
    const legacy = resolveExchangeTargets({
      KESTREL_EXCHANGE_ENV: 'mainnet',
      KESTREL_EXCHANGE_BASE_URL: 'http://127.0.0.1:4002',
    });
    expect(legacy.targets.mainnet).toMatchObject({ configured: true, kind: 'binance-mainnet' });
    expect(endpointsOf(legacy.targets.mainnet)?.restUrl).toBe('http://127.0.0.1:4002');
    expect(endpointsOf(legacy.targets.testnet)?.restUrl).toBe('http://127.0.0.1:8100');
    expect(legacy.notices[0]).toMatch(/KESTREL_EXCHANGE_ENV=mainnet is read as KESTREL_MAINNET=1/);
    expect(() => resolveExchangeTargets({ KESTREL_MAINNET: '1', KESTREL_MAINNET_BASE_URL: 'nope' })).toThrow(
      /KESTREL_MAINNET_BASE_URL must be an http\(s\) or ws\(s\) URL/,
    );
  });
});
