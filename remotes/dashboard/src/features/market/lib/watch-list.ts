import { MAX_WATCHED_SYMBOLS, SymbolSchema } from '@kestrel/contracts';

/**
 * The symbols watched until the trader picks others: the most traded USDⓈ-M contracts, which every exchange the
 * server can talk to lists (Binance, its testnet and the simulator's default symbols)
 */
export const DEFAULT_WATCH_LIST: readonly string[] = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT'];

/** Where a user's watch list is kept in this browser */
export const watchListStorageKey = (userId: string) => `kestrel-watch-list:${userId}`;

/** A stored list, or the default when nothing (or nothing readable) is stored */
export function readWatchList(stored: string | null): readonly string[] {
  if (!stored) return DEFAULT_WATCH_LIST;
  try {
    const parsed: unknown = JSON.parse(stored);
    if (!Array.isArray(parsed)) return DEFAULT_WATCH_LIST;
    const symbols = parsed.flatMap((s) => {
      const result = SymbolSchema.safeParse(s);
      return result.success ? [result.data] : [];
    });
    const unique = [...new Set(symbols)].slice(0, MAX_WATCHED_SYMBOLS);
    return unique.length > 0 ? unique : DEFAULT_WATCH_LIST;
  } catch {
    return DEFAULT_WATCH_LIST;
  }
}

/** Why a symbol cannot be added, before asking the exchange; undefined when it may be */
export function addSymbolProblem(list: readonly string[], input: string): string | undefined {
  const parsed = SymbolSchema.safeParse(input);
  if (!parsed.success) return parsed.error.issues[0]?.message ?? 'Not a symbol';
  if (list.includes(parsed.data)) return `${parsed.data} is already in the watch list`;
  if (list.length >= MAX_WATCHED_SYMBOLS)
    return `The watch list holds at most ${MAX_WATCHED_SYMBOLS} symbols`;
  return undefined;
}
