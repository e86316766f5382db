/**
 * The symbols watched until the trader picks others: the most traded USDⓈ-M contracts, which every exchange the
 * server can talk to lists (Binance, its testnet and the simulator's default symbols)
 */
export const DEFAULT_WATCH_LIST: readonly string[] = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT'];
