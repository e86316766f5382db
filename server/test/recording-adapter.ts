import { BinanceUsdmAdapter } from '../src/core/exchange/binance-adapter';
import type { ExchangeKeys, Kline } from '../src/core/exchange/exchange-adapter';

/**
 * The real adapter, recording the exchange calls a backtest makes through it: which kline ranges were asked for
 * (to see what the kline cache saved), and how often funding rates and leverage brackets were read
 */
export class RecordingAdapter extends BinanceUsdmAdapter {
  readonly klineCalls: { symbol: string; interval: string; startTime?: number; endTime?: number }[] = [];
  fundingCalls = 0;
  bracketCalls = 0;

  override async klines(
    symbol: string,
    interval: string,
    limit: number,
    range: { startTime?: number; endTime?: number } = {},
  ): Promise<Kline[]> {
    this.klineCalls.push({ symbol, interval, ...range });
    return super.klines(symbol, interval, limit, range);
  }

  override async fundingRateHistory(
    symbol: string,
    range: { startTime: number; endTime: number; limit: number },
  ) {
    this.fundingCalls += 1;
    return super.fundingRateHistory(symbol, range);
  }

  override async leverageBrackets(keys: ExchangeKeys, symbol: string) {
    this.bracketCalls += 1;
    return super.leverageBrackets(keys, symbol);
  }
}
