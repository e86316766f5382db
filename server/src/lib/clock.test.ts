import { describe, expect, it } from 'vitest';
import { ManualClock, sleep, systemClock } from './clock';

describe('ManualClock', () => {
  it('runs timers in due order, each seeing its own due time', async () => {
    const clock = new ManualClock(1_000);
    const seen: string[] = [];
    clock.after(300, () => seen.push(`b@${clock.now().getTime()}`));
    clock.after(100, () => seen.push(`a@${clock.now().getTime()}`));
    await clock.advance(200);
    expect(seen).toEqual(['a@1100']);
    expect(clock.now().getTime()).toBe(1_200);
    await clock.advance(100);
    expect(seen).toEqual(['a@1100', 'b@1300']);
    expect(clock.pending).toBe(0);
  });

  it('repeats every period until cancelled, and runs timers started inside a callback', async () => {
    const clock = new ManualClock(0);
    const ticks: number[] = [];
    const timer = clock.every(50, () => {
      ticks.push(clock.now().getTime());
      if (ticks.length === 2) clock.after(10, () => ticks.push(-clock.now().getTime()));
    });
    await clock.advance(160);
    expect(ticks).toEqual([50, 100, -110, 150]);
    timer.cancel();
    await clock.advance(1_000);
    expect(ticks).toHaveLength(4);
  });

  it('resolves a sleep when time passes it, and lets its awaiting code run on', async () => {
    const clock = new ManualClock(0);
    const steps: string[] = [];
    const done = (async () => {
      await sleep(clock, 1_000);
      steps.push('woke');
    })();
    await clock.advance(999);
    expect(steps).toEqual([]);
    await clock.advance(1);
    expect(steps).toEqual(['woke']);
    await done;
  });

  it('never moves backwards', async () => {
    const clock = new ManualClock(5_000);
    await expect(clock.set(4_000)).rejects.toThrow(RangeError);
    await expect(clock.advance(-1)).rejects.toThrow(RangeError);
    await expect(clock.jump(-1)).rejects.toThrow(RangeError);
  });

  it('jumps: each timer due on the way runs once, late, and a repeating one goes on from the new time', async () => {
    const clock = new ManualClock(0);
    const seen: string[] = [];
    clock.every(1_000, () => seen.push(`every@${clock.now().getTime()}`));
    clock.after(500, () => seen.push(`once@${clock.now().getTime()}`));
    clock.after(90_000, () => seen.push('later'));
    await clock.jump(60_000);
    expect(seen).toEqual(['once@60000', 'every@60000']);
    await clock.advance(1_000);
    expect(seen).toEqual(['once@60000', 'every@60000', 'every@61000']);
    expect(clock.pending).toBe(2);
  });

  it('lets promise chains settle on an advance that runs no timer', async () => {
    const clock = new ManualClock(0);
    let answered = false;
    void (async () => {
      for (let i = 0; i < 50; i++) await Promise.resolve();
      answered = true;
    })();
    await clock.advance(0);
    expect(answered).toBe(true);
  });
});

describe('systemClock', () => {
  it('cancels a timer before it runs', async () => {
    let ran = false;
    systemClock
      .after(1, () => {
        ran = true;
      })
      .cancel();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ran).toBe(false);
  });
});
