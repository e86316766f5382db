import type { KlineInterval } from '@kestrel/contracts';
import { useLiveEvent } from '@kestrel/shared-runtime/react';
import { useQueryClient } from '@tanstack/react-query';
import { chartKeys } from '../api/chart-keys';
import { CANDLE_LIMIT, useKlines } from '../api/get-klines';
import { applyPrice, type Candle } from '../lib/candles';

/**
 * The chart's one candle source: the exchange's bars over REST, with the forming bar moved by each live price push
 * of the symbol; a push past the forming bar's close fetches the bars again (the new bar's open comes from the
 * exchange, not from a guess). While the socket is down the bars are polled instead.
 */
export function useCandles(symbol: string, interval: KlineInterval, { live }: { live: boolean }) {
  const queryClient = useQueryClient();
  const query = useKlines(symbol, interval, { live });
  const key = chartKeys.klines(symbol, interval, CANDLE_LIMIT);
  useLiveEvent('ticker', (notice) => {
    if (notice.symbol !== symbol) return;
    const candles = queryClient.getQueryData<Candle[]>(key);
    if (!candles) return;
    const applied = applyPrice(candles, Number(notice.lastPrice), notice.time);
    if (applied.kind === 'updated') queryClient.setQueryData(key, applied.candles);
    else if (applied.kind === 'rolled' && !queryClient.isFetching({ queryKey: key })) {
      void queryClient.invalidateQueries({ queryKey: key });
    }
  });
  return query;
}
