import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { holdFeed } from './held-feed';

describe('holdFeed', () => {
  it('hands what came before the first subscriber to it in order, then passes live messages on', async () => {
    const source = new Subject<string>();
    const { feed$, arrived, stop } = holdFeed(source);
    source.next('first');
    source.next('second');
    await arrived;
    const seen: string[] = [];
    const subscription = feed$.subscribe((v) => seen.push(v));
    expect(seen).toEqual(['first', 'second']);
    source.next('live');
    expect(seen).toEqual(['first', 'second', 'live']);
    subscription.unsubscribe();
    stop();
    expect(source.observed).toBe(false);
  });

  it('keeps messages again while nobody listens, and none twice', () => {
    const source = new Subject<number>();
    const { feed$ } = holdFeed(source);
    source.next(1);
    const first: number[] = [];
    feed$.subscribe((v) => first.push(v)).unsubscribe();
    source.next(2);
    const second: number[] = [];
    feed$.subscribe((v) => second.push(v));
    expect(first).toEqual([1]);
    expect(second).toEqual([2]);
  });
});
