import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryStorage, STORAGE_KEYS } from '../storage/storage';
import type { ToastMessage } from './toast';
import { createTradingEnvironment } from './trading-environment';

describe('trading environment (spec §4, §9)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-03-01T00:00:00Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('defaults to testnet', () => {
    expect(createTradingEnvironment({ storage: createMemoryStorage() }).state).toEqual({
      currentEnvironment: 'testnet',
      isTestnetMode: true,
      environmentHistory: [],
    });
  });

  it('records each switch with its time and exchange, and persists it', () => {
    const storage = createMemoryStorage();
    const env = createTradingEnvironment({ storage, currentExchange: () => 'binance' });
    env.switchTo('mainnet');
    vi.advanceTimersByTime(5_000);
    env.switchTo('testnet', null);
    expect(env.state).toEqual({
      currentEnvironment: 'testnet',
      isTestnetMode: true,
      environmentHistory: [
        { environment: 'mainnet', timestamp: Date.parse('2026-03-01T00:00:00Z'), exchangeId: 'binance' },
        { environment: 'testnet', timestamp: Date.parse('2026-03-01T00:00:05Z'), exchangeId: 'binance' },
      ],
    });
    const reloaded = createTradingEnvironment({ storage });
    expect(reloaded.state).toEqual(env.state);
    expect(storage.keys()).toEqual([STORAGE_KEYS.tradingEnvironment]);
  });

  it('keeps only the last 10 switches', () => {
    const env = createTradingEnvironment({ storage: createMemoryStorage() });
    for (let i = 0; i < 12; i++) {
      env.switchTo(i % 2 === 0 ? 'mainnet' : 'testnet');
      vi.advanceTimersByTime(1_000);
    }
    const history = env.state.environmentHistory;
    expect(history).toHaveLength(10);
    // the two oldest switches (t = 0 s and 1 s) were dropped
    expect(history[0]?.timestamp).toBe(Date.parse('2026-03-01T00:00:02Z'));
    expect(history.at(-1)?.timestamp).toBe(Date.parse('2026-03-01T00:00:11Z'));
  });

  it('toasts simulation with fake funds on testnet, LIVE trading with real money in destructive style on mainnet', () => {
    const env = createTradingEnvironment({ storage: createMemoryStorage() });
    const toasts: ToastMessage[] = [];
    env.toasts$.subscribe((t) => toasts.push(t));
    env.switchTo('mainnet');
    env.switchTo('testnet');
    expect(toasts[0]?.variant).toBe('destructive');
    expect(toasts[0]?.description).toContain('LIVE trading with real money');
    expect(toasts[1]?.variant).toBe('default');
    expect(toasts[1]?.description?.toLowerCase()).toContain('simulation with fake funds');
  });

  it('does nothing when switching to the current environment', () => {
    const env = createTradingEnvironment({ storage: createMemoryStorage() });
    const toasts: ToastMessage[] = [];
    env.toasts$.subscribe((t) => toasts.push(t));
    env.switchTo('testnet');
    expect(env.state.environmentHistory).toEqual([]);
    expect(toasts).toEqual([]);
  });

  it('ignores an unreadable stored value and starts on testnet', () => {
    const storage = createMemoryStorage({
      [STORAGE_KEYS.tradingEnvironment]: '{"currentEnvironment":"moon"}',
    });
    expect(createTradingEnvironment({ storage }).state.currentEnvironment).toBe('testnet');
  });

  it('with a server: an unreadable answer shows no environment rather than a guess; a refusal toasts its reason', async () => {
    const refused = {
      success: false as const,
      error: 'Mainnet is not configured on this server',
      code: 'ENVIRONMENT_NOT_CONFIGURED',
      status: 409,
    };
    const env = createTradingEnvironment({
      storage: createMemoryStorage(),
      server: {
        load: async () => ({ success: false, error: 'Server unreachable', unreachable: true }),
        switchTo: async () => refused,
      },
    });
    const toasts: ToastMessage[] = [];
    env.toasts$.subscribe((t) => toasts.push(t));
    await env.refresh();
    expect(env.state.target).toBeUndefined();
    expect(env.state.loadError).toBe('Server unreachable');
    expect(await env.switchTo('mainnet')).toBe(false);
    expect(env.state.currentEnvironment).toBe('testnet');
    expect(toasts).toEqual([
      {
        title: 'Could not switch to Mainnet',
        description: 'Mainnet is not configured on this server',
        variant: 'destructive',
      },
    ]);
  });
});
