import { cn } from '@kestrel/ui';
import { useCallback, useLayoutEffect, useRef } from 'react';

/**
 * `onPrice` as a function that never changes while one is given, so memoised rows do not all re-render when the
 * parent hands a new arrow on each of its renders (10 a second with a live book)
 */
export function useStablePrice(
  onPrice: ((price: string) => void) | undefined,
): ((price: string) => void) | undefined {
  const latest = useRef(onPrice);
  useLayoutEffect(() => {
    latest.current = onPrice;
  });
  const stable = useCallback((price: string) => latest.current?.(price), []);
  return onPrice ? stable : undefined;
}

/**
 * A price that fills the order ticket when pressed: a real button (keyboard, screen readers) named "Use price
 * 64,118.1"; plain text when nothing takes the price
 */
export function PriceButton({
  price,
  text,
  onPrice,
  className,
}: {
  /** What is handed on: the exchange's string ("64118.1") */
  price: string;
  /** How it reads: "64,118.1" */
  text: string;
  onPrice: ((price: string) => void) | undefined;
  className?: string;
}) {
  if (!onPrice) return <span className={className}>{text}</span>;
  return (
    <button
      type="button"
      aria-label={`Use price ${text}`}
      onClick={() => onPrice(price)}
      className={cn(
        'db:cursor-pointer db:rounded-sm db:text-left db:underline-offset-2 db:hover:underline db:focus-visible:outline-2 db:focus-visible:outline-ring',
        className,
      )}
    >
      {text}
    </button>
  );
}
