import type { Bot } from '@kestrel/contracts/bots';
import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useNow } from '../../../lib/use-now';
import {
  actionWords,
  canEdit,
  canStart,
  canStop,
  formatUptime,
  isIdle,
  liveAccountWords,
  uptimeNow,
} from './bot-words';

afterEach(() => {
  vi.useRealTimers();
});

describe('a running bot’s uptime between two reads of its status', () => {
  it('ticks on from the server’s figure each second while the bot runs, and stands still otherwise', () => {
    const read = Date.UTC(2026, 11, 2, 12);
    vi.useFakeTimers({ now: read, toFake: ['Date', 'setInterval', 'clearInterval'] });
    const { result, rerender } = renderHook(({ running }) => useNow(running), {
      initialProps: { running: true },
    });
    const shown = (running: boolean) => formatUptime(uptimeNow(59_000, read, result.current, running));
    expect(shown(true)).toBe('59 s');
    act(() => vi.advanceTimersByTime(3_000));
    expect(shown(true)).toBe('1 min 2 s');
    // Stopping: the figure the server gives (its last) stands, and the clock stops ticking
    rerender({ running: false });
    const stopped = result.current;
    act(() => vi.advanceTimersByTime(5_000));
    expect(result.current).toBe(stopped);
    expect(shown(false)).toBe('59 s');
    expect(formatUptime(uptimeNow(null, read, result.current, true))).toBe('—');
  });
});

describe('a live bot says whose money it trades', () => {
  const bot = { name: 'G', symbol: 'BTCUSDT', budget: 500, mode: 'live', environment: 'testnet' } as Bot;

  it('only mainnet is real money; the simulator and testnet say their funds are not', () => {
    expect(liveAccountWords({ kind: 'binance-mainnet' })).toMatchObject({ real: true });
    expect(liveAccountWords({ kind: 'simulator' })).toEqual({
      account: 'your account on the exchange simulator',
      money: 'demo funds: no real money',
      real: false,
    });
    expect(actionWords('start', bot, { kind: 'binance-testnet' }).body).toBe(
      'It will place real orders on BTCUSDT with your Binance testnet account (fake funds: no real money), up to its budget of 500 USDT, until you stop it.',
    );
  });

  it('an environment the server has not described yet is said as real money', () => {
    expect(liveAccountWords(undefined)).toMatchObject({ account: 'your Binance account', real: true });
  });
});

describe('what a paused bot offers and says', () => {
  const live = {
    name: 'G',
    symbol: 'BTCUSDT',
    budget: 500,
    mode: 'live',
    environment: 'testnet',
    state: 'running',
  } as Bot;
  const paused = { ...live, state: 'paused' } as Bot;

  it('resumes, stops and changes, but is never deleted while its orders stand', () => {
    expect([canStart('paused'), canStop('paused'), canEdit('paused'), isIdle('paused')]).toEqual([
      true,
      true,
      true,
      false,
    ]);
    // A running bot changes too (a restart), and neither starts again nor deletes
    expect([canStart('running'), canEdit('running'), canEdit('stopping')]).toEqual([false, true, false]);
  });

  it('says before pausing that its orders stay and may fill, and before resuming that they are laid anew', () => {
    expect(actionWords('pause', live)).toMatchObject({
      title: 'Pause G?',
      confirm: 'Pause bot',
      destructive: false,
      body: expect.stringMatching(/^Its open orders on BTCUSDT stay on the exchange, where they may fill/),
    });
    expect(actionWords('start', paused, { kind: 'binance-testnet' })).toMatchObject({
      title: 'Resume G?',
      confirm: 'Resume bot',
      body: 'The orders it left standing on BTCUSDT are canceled, then it lays its orders anew from the price now: real orders with your Binance testnet account (fake funds: no real money), up to its budget of 500 USDT, until you stop it.',
    });
    expect(actionWords('stop', paused).body).toMatch(
      /^The orders it left standing on BTCUSDT when it was paused will be canceled\./,
    );
  });
});
