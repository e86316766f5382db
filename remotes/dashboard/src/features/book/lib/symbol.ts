/**
 * The asset a symbol is quoted in, from its name and base asset: BTCUSDT/BTC → "USDT", 1000PEPEUSDC/1000PEPE →
 * "USDC", a dated contract BTCUSDT_250627 → "USDT". Undefined when the name does not start with the base: a column
 * head without a unit beats a wrong one
 */
export function quoteAssetOf(symbol: string, baseAsset: string): string | undefined {
  const name = symbol.split('_')[0] ?? symbol;
  if (!baseAsset || !name.startsWith(baseAsset) || name.length === baseAsset.length) return undefined;
  return name.slice(baseAsset.length);
}
