import { describe, expect, it } from 'vitest';
import { createDomainEvents } from './domain-events';

declare module './domain-events' {
  interface DomainEventMap {
    'test.happened': { n: number };
  }
}

describe('domain events', () => {
  it('emit runs handlers in subscription order and stops at the first that throws', async () => {
    const events = createDomainEvents(() => {});
    const seen: string[] = [];
    events.on('test.happened', async ({ n }) => {
      await Promise.resolve();
      seen.push(`a${n}`);
    });
    events.on('test.happened', () => {
      throw new Error('vetoed');
    });
    events.on('test.happened', ({ n }) => void seen.push(`c${n}`));
    await expect(events.emit('test.happened', { n: 1 })).rejects.toThrow('vetoed');
    expect(seen).toEqual(['a1']);
  });

  it('publish runs every handler and hands failures to onError, never to the emitter', async () => {
    const failures: string[] = [];
    const events = createDomainEvents((err, name) => failures.push(`${name}: ${(err as Error).message}`));
    const seen: number[] = [];
    events.on('test.happened', () => {
      throw new Error('broken');
    });
    events.on('test.happened', ({ n }) => void seen.push(n));
    await events.publish('test.happened', { n: 2 });
    expect(seen).toEqual([2]);
    expect(failures).toEqual(['test.happened: broken']);
  });

  it('an unsubscribed handler is not called', async () => {
    const events = createDomainEvents(() => {});
    const seen: number[] = [];
    const off = events.on('test.happened', ({ n }) => void seen.push(n));
    off();
    await events.emit('test.happened', { n: 3 });
    expect(seen).toEqual([]);
  });
});
