import type { ExchangeAdapter, ExchangeKeys } from './exchange-adapter';
import { isKeyRefusal } from './exchange-http-error';

const isKeys = (value: unknown): value is ExchangeKeys =>
  typeof value === 'object' && value !== null && typeof (value as ExchangeKeys).apiKey === 'string';

/**
 * The adapter as every caller uses it, watched at the one spot all keyed calls cross: when Binance refuses the key
 * of a call (unknown, malformed, permission taken away), `onRefused` hears the key and Binance's words, and the
 * caller still gets the error untouched. Whoever called (a page, a bot, the recorder) need not know about notices
 */
export function watchKeyRefusals(
  adapter: ExchangeAdapter,
  onRefused: (apiKey: string, reason: string) => void,
): ExchangeAdapter {
  return new Proxy(adapter, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const result: unknown = value.apply(target, args);
        const keys = args[0];
        if (!isKeys(keys) || !(result instanceof Promise)) return result;
        return result.catch((err: unknown) => {
          if (isKeyRefusal(err)) onRefused(keys.apiKey, (err as Error).message);
          throw err;
        });
      };
    },
  });
}
