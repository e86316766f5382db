// No zod here: the runtime reads stored connections with these as the page starts, before the schemas load

/** Exchanges the product knows by name (spec §1: only binance can be connected; the others are coming soon) */
export const EXCHANGE_IDS = ['binance', 'coinbase', 'kraken', 'bybit'] as const;
export type ExchangeId = (typeof EXCHANGE_IDS)[number];
