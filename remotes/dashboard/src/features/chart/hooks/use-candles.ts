import type { KlineInterval } from '@kestrel/contracts';
import { useLiveCandles } from '@kestrel/shared-runtime/react';
import { useQueryClient } from '@tanstack/react-query';
import { chartKeys } from '../api/chart-keys';
import { CANDLE_LIMIT, useKlines } from '../api/get-klines';
import { applyCandle, type Candle } from '../lib/candles';

/**
 * The chart's one candle source: the exchange's bars over REST, with each live candle push of (symbol, interval)
 * written into them (the forming bar at most 4 times a second, then the closed bar). While the socket is down the
 * runtime polls the bars instead, and asks once more when it is back.
 */
export function useCandles(symbol: string, interval: KlineInterval) {
  const queryClient = useQueryClient();
  const query = useKlines(symbol, interval);
  useLiveCandles(symbol, interval, (push) => {
    queryClient.setQueryData<readonly Candle[]>(
      chartKeys.klines(symbol, interval, CANDLE_LIMIT),
      (candles) => (candles ? applyCandle(candles, push) : candles),
    );
  });
  return query;
}
