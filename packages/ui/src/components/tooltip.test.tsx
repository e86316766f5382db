import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Button } from './button';
import { Tooltip, TooltipContent, TooltipProvider, TooltipTrigger } from './tooltip';

function twoTooltips() {
  return render(
    <TooltipProvider>
      <Tooltip>
        <TooltipTrigger asChild>
          <Button>First</Button>
        </TooltipTrigger>
        <TooltipContent>First tip</TooltipContent>
      </Tooltip>
      <Tooltip>
        <TooltipTrigger asChild>
          <Button>Second</Button>
        </TooltipTrigger>
        <TooltipContent>Second tip</TooltipContent>
      </Tooltip>
    </TooltipProvider>,
  );
}

// Far-apart pointer positions so Radix's hover grace area (pointer travelling to the open tooltip) never applies
const at = (el: HTMLElement) => (el.textContent === 'First' ? 10 : 500);
const hover = (el: HTMLElement) =>
  fireEvent.pointerMove(el, { pointerType: 'mouse', clientX: at(el), clientY: at(el) });
// Leaving a trigger, then moving over empty page: Radix closes the tooltip on that first move
const leave = (el: HTMLElement) => {
  fireEvent.pointerLeave(el, { pointerType: 'mouse', clientX: at(el), clientY: at(el) });
  fireEvent.pointerMove(document.body, { pointerType: 'mouse', clientX: 900, clientY: 900 });
};
const advance = (ms: number) => act(() => vi.advanceTimersByTime(ms));
const tip = (text: string) => screen.queryByRole('tooltip', { name: text });

describe('Tooltip delays (spec §9: 700 ms open, 300 ms skip)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('opens only after 700 ms of hover', () => {
    twoTooltips();
    hover(screen.getByRole('button', { name: 'First' }));
    advance(699);
    expect(tip('First tip')).toBeNull();
    advance(1);
    expect(tip('First tip')).not.toBeNull();
  });

  it('opens after 700 ms without a TooltipProvider above too', () => {
    render(
      <Tooltip>
        <TooltipTrigger asChild>
          <Button>First</Button>
        </TooltipTrigger>
        <TooltipContent>First tip</TooltipContent>
      </Tooltip>,
    );
    hover(screen.getByRole('button', { name: 'First' }));
    advance(699);
    expect(tip('First tip')).toBeNull();
    advance(1);
    expect(tip('First tip')).not.toBeNull();
  });

  it('opens the next tooltip at once when moved within 300 ms, and waits again after that', () => {
    twoTooltips();
    const first = screen.getByRole('button', { name: 'First' });
    const second = screen.getByRole('button', { name: 'Second' });
    hover(first);
    advance(700);
    leave(first);
    advance(299);
    hover(second);
    expect(tip('Second tip')).not.toBeNull();

    leave(second);
    advance(300);
    hover(first);
    expect(tip('First tip')).toBeNull();
    advance(700);
    expect(tip('First tip')).not.toBeNull();
  });
});
