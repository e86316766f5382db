import type { FastifyBaseLogger } from 'fastify';
import type { ExchangeAdapter } from '../../core/exchange/exchange-adapter';
import { reasonOf } from './bot-fault';

/** The asset a bot's budget, PnL and fees are counted in */
export const QUOTE_ASSET = 'USDT';

/** Minutes of prices kept (a bot's fills cluster in a few minutes; a replay after a restart reads each once) */
const CACHE_MINUTES = 2_000;

/** A fill's commission as the bot counts it: in USDT, with the words and figures its log line shows */
export interface CountedFee {
  /** USDT taken from the bot's PnL (0 when the asset could not be priced) */
  usdt: number;
  /** For the log line: "fee 0.0299 USDT", or the asset, the rate and where it came from */
  words: string;
  /** For the log line's data: the commission as charged and, for another asset, the rate used */
  data: Record<string, unknown>;
}

/**
 * Prices commissions charged in another asset than USDT (Binance takes futures fees in BNB, 10 % off, when the
 * account's BNB fee discount is on) so a bot counts them in its PnL: the asset's USDT price at the fill's minute,
 * the open of `<asset>USDT`'s 1m bar holding the fill time. An open, not a close: it is known as soon as the minute
 * starts, so a fill taken from the stream and the same fill replayed after a restart get the same rate. Binance does
 * not say which price it converted at (it is within that minute). Prices are kept per minute; a failed read is not
 * kept (the fee is logged uncounted, with the reason)
 */
export class CommissionRates {
  private readonly prices = new Map<string, Promise<{ rate: number; source: string }>>();

  constructor(
    private readonly deps: {
      exchange: Pick<ExchangeAdapter, 'klines'>;
      logger: FastifyBaseLogger;
    },
  ) {}

  /** `commission` of `asset` charged at `time`, counted in USDT */
  async count(commission: number, asset: string, time: number): Promise<CountedFee> {
    if (asset === QUOTE_ASSET || asset === '' || commission === 0) {
      return {
        usdt: commission,
        words: commission > 0 ? `fee ${commission.toFixed(4)} ${QUOTE_ASSET}` : '',
        data: {},
      };
    }
    try {
      const { rate, source } = await this.rate(asset, time);
      const usdt = commission * rate;
      return {
        usdt,
        words: `fee ${usdt.toFixed(4)} ${QUOTE_ASSET} (${commission} ${asset} at ${rate} ${QUOTE_ASSET}, ${source})`,
        data: { commission, commissionAsset: asset, feeRate: rate, feeRateSource: source },
      };
    } catch (err) {
      this.deps.logger.warn({ asset, time, err: reasonOf(err) }, 'commission not priced');
      return {
        usdt: 0,
        words: `fee ${commission} ${asset}, not counted in PnL: no ${asset}${QUOTE_ASSET} price (${reasonOf(err)})`,
        data: { commission, commissionAsset: asset, feeRate: null },
      };
    }
  }

  private rate(asset: string, time: number): Promise<{ rate: number; source: string }> {
    const minute = Math.floor(time / 60_000) * 60_000;
    const key = `${asset}:${minute}`;
    let price = this.prices.get(key);
    if (!price) {
      price = this.read(`${asset}${QUOTE_ASSET}`, minute);
      this.prices.set(key, price);
      price.catch(() => this.prices.delete(key));
      if (this.prices.size > CACHE_MINUTES) {
        const oldest = this.prices.keys().next().value;
        if (oldest !== undefined) this.prices.delete(oldest);
      }
    }
    return price;
  }

  private async read(symbol: string, minute: number): Promise<{ rate: number; source: string }> {
    const [bar] = await this.deps.exchange.klines(symbol, '1m', 1, { startTime: minute });
    if (!bar || bar.openTime !== minute)
      throw new Error(`the exchange has no ${symbol} 1m bar at that minute`);
    const rate = Number(bar.open);
    if (!(rate > 0)) throw new Error(`${symbol} opened that minute at ${bar.open}`);
    const hhmm = new Date(minute).toISOString().slice(11, 16);
    return { rate, source: `${symbol} 1m open ${hhmm} UTC` };
  }
}
