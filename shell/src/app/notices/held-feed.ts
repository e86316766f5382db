import { Observable } from 'rxjs';

export type HeldFeed<T> = {
  /** What the source sent while nobody listened (in order), then what it sends live */
  feed$: Observable<T>;
  /** Resolves with the source's first message */
  arrived: Promise<void>;
  stop: () => void;
};

/**
 * Listens to `source$` at once and keeps its messages until someone subscribes to `feed$`, so messages sent while
 * the code that shows them is still loading are shown late instead of lost. One listener at a time.
 */
export function holdFeed<T>(source$: Observable<T>): HeldFeed<T> {
  const held: T[] = [];
  let listener: ((value: T) => void) | null = null;
  let markArrived = () => {};
  const arrived = new Promise<void>((resolve) => {
    markArrived = resolve;
  });
  const subscription = source$.subscribe((value) => {
    markArrived();
    if (listener) listener(value);
    else held.push(value);
  });
  const feed$ = new Observable<T>((subscriber) => {
    for (const value of held.splice(0)) subscriber.next(value);
    listener = (value) => subscriber.next(value);
    return () => {
      listener = null;
    };
  });
  return { feed$, arrived, stop: () => subscription.unsubscribe() };
}
