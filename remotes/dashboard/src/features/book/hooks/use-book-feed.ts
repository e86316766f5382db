import type { BookLevel, TapeTrade } from '@kestrel/contracts';
import { useKestrelRuntime, useLiveBook, useLiveStatus, useLiveTrades } from '@kestrel/shared-runtime/react';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { orderBookQuery, recentTradesQuery, TAPE_TRADES } from '../api/book-queries';
import type { FeedStatus } from '../components/feed-panel';

/** While the socket is down the book and tape are read this often instead (what the pushes would have said) */
export const BOOK_POLL_MS = 2_000;

export interface BookFeed {
  status: FeedStatus;
  error?: string;
  bids: readonly BookLevel[];
  asks: readonly BookLevel[];
}

/**
 * The symbol's order book: the REST book at first, then the server's pushes (the same synced book, ten a second
 * at most). With the socket down the book is polled and said to be not live
 */
export function useOrderBookFeed(symbol: string): BookFeed {
  const { api } = useKestrelRuntime();
  const paused = useLiveStatus() === 'paused';
  const pushed = useLiveBook(symbol);
  const rest = useQuery({ ...orderBookQuery(api, symbol), refetchInterval: paused ? BOOK_POLL_MS : false });
  const book = pushed ?? rest.data;
  if (book) return { status: paused ? 'stale' : 'live', bids: book.bids, asks: book.asks };
  if (rest.isError) return { status: 'error', error: rest.error.message, bids: [], asks: [] };
  return { status: 'loading', bids: [], asks: [] };
}

export interface TapeFeed {
  status: FeedStatus;
  error?: string;
  trades: readonly TapeTrade[];
}

/** The symbol's latest trades: the REST list at first, each pushed batch added (the latest `TAPE_TRADES` kept) */
export function useTradesFeed(symbol: string): TapeFeed {
  const { api } = useKestrelRuntime();
  const paused = useLiveStatus() === 'paused';
  const rest = useQuery({
    ...recentTradesQuery(api, symbol),
    refetchInterval: paused ? BOOK_POLL_MS : false,
  });
  const [pushed, setPushed] = useState<{ symbol: string; trades: TapeTrade[] }>({ symbol, trades: [] });
  const onTrades = useCallback(
    (notice: { symbol: string; trades: TapeTrade[] }) =>
      setPushed((current) =>
        // A push of another symbol than the one kept: the chart moved on, a new tape starts
        current.symbol === notice.symbol
          ? { symbol: notice.symbol, trades: [...current.trades, ...notice.trades].slice(-TAPE_TRADES) }
          : { symbol: notice.symbol, trades: notice.trades.slice(-TAPE_TRADES) },
      ),
    [],
  );
  useLiveTrades(symbol, onTrades);
  const own = pushed.symbol === symbol ? pushed.trades : [];
  // The REST list and the pushes meet without repeats: a pushed trade replaces the same id read over REST
  const seen = new Set(own.map((t) => t.id));
  const trades = [...(rest.data?.trades ?? []).filter((t) => !seen.has(t.id)), ...own].slice(-TAPE_TRADES);
  if (trades.length > 0 || rest.isSuccess) return { status: paused ? 'stale' : 'live', trades };
  if (rest.isError) return { status: 'error', error: rest.error.message, trades: [] };
  return { status: 'loading', trades: [] };
}
