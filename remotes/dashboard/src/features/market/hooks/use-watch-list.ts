import { useKestrelRuntime, useSession } from '@kestrel/shared-runtime/react';
import { useCallback, useEffect, useState } from 'react';
import { DEFAULT_WATCH_LIST, readWatchList, watchListStorageKey } from '../lib/watch-list';

export interface WatchList {
  symbols: readonly string[];
  add(symbol: string): void;
  /** The last symbol stays: the chart needs one */
  remove(symbol: string): void;
  /** Back to the default list (e.g. after switching to an exchange that lists fewer symbols) */
  reset(): void;
}

/** The signed-in user's watch list, kept in this browser */
export function useWatchList(): WatchList {
  const { storage } = useKestrelRuntime();
  const key = watchListStorageKey(useSession().user?.id ?? 'anonymous');
  const [symbols, setSymbols] = useState(() => readWatchList(storage.getItem(key)));
  useEffect(() => setSymbols(readWatchList(storage.getItem(key))), [storage, key]);

  const save = useCallback(
    (next: readonly string[]) => {
      setSymbols(next);
      try {
        storage.setItem(key, JSON.stringify(next));
      } catch {
        // Storage refused (private mode, full): the list holds until the page closes
      }
    },
    [storage, key],
  );
  const add = useCallback((symbol: string) => save([...symbols, symbol]), [save, symbols]);
  const remove = useCallback(
    (symbol: string) => {
      const next = symbols.filter((s) => s !== symbol);
      if (next.length > 0) save(next);
    },
    [save, symbols],
  );
  const reset = useCallback(() => save(DEFAULT_WATCH_LIST), [save]);
  return { symbols, add, remove, reset };
}
