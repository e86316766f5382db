import { useSyncExternalStore } from 'react';
import type { Observable } from 'rxjs';

const cache = new WeakMap<Observable<unknown>, { value: unknown; subscribers: number }>();

/**
 * Reads the latest value of an observable in a component; re-renders when it emits.
 * `initial` is returned until the first emission.
 */
export function useObservable<T>(source: Observable<T>, initial: T): T {
  return useSyncExternalStore(
    (onChange) => {
      const entry = cache.get(source) ?? { value: initial, subscribers: 0 };
      entry.subscribers += 1;
      cache.set(source, entry);
      const sub = source.subscribe((value) => {
        entry.value = value;
        onChange();
      });
      return () => {
        sub.unsubscribe();
        entry.subscribers -= 1;
        if (entry.subscribers === 0) cache.delete(source);
      };
    },
    () => (cache.has(source) ? (cache.get(source)?.value as T) : initial),
    () => initial,
  );
}
