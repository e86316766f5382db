import type { CreateOrderRequest, OrderPreview } from '@kestrel/contracts';
import { BTCUSDT_BRACKETS, type LeverageBracket, liquidationPrice } from '@kestrel/engine';
import type { AccountSnapshot, Position, SymbolConfig } from '../../core/exchange/exchange-adapter';

export interface PreviewInput {
  order: CreateOrderRequest;
  /** What the order is priced at: its limit price, or the last price for a market order */
  price: number;
  config: SymbolConfig;
  account: AccountSnapshot;
  /** The symbol's positions as positionRisk lists them (entry prices), open or flat */
  positions: readonly Position[];
  /** The symbol's leverage brackets (undefined: the engine's default table) */
  brackets: readonly LeverageBracket[] | undefined;
}

/** A number as a decimal string with at most `digits` decimals (no exponent, no trailing zeros) */
const decimal = (n: number, digits = 8): string => {
  const text = n.toFixed(digits).replace(/\.?0+$/, '');
  return text === '-0' ? '0' : text;
};

/**
 * What an order costs and where the position it leaves would be liquidated, by Binance's one-way formula. The
 * position after the fill: the order added to the symbol's position on the order's position side (a reduce-only
 * order never past flat); its entry the average of both when adding, unchanged when reducing, the order's price
 * when it opens or flips. Cross margin: the wallet with the other positions' maintenance margin and PnL as they
 * stand; isolated: the margin the position holds (its initial margin at the mark) plus what the order adds. An
 * estimate: funding, fees and the mark moving before the fill all move the real one
 */
export function previewOrder(input: PreviewInput): OrderPreview {
  const { order, price, config, account } = input;
  const qty = Number(order.quantity ?? 0);
  const side = order.positionSide ?? 'BOTH';
  const held = input.positions.find((p) => p.positionSide === side);
  const before = Number(held?.amount ?? 0);
  const entryBefore = Number(held?.entryPrice ?? 0);
  let after = before + (order.side === 'BUY' ? qty : -qty);
  if (order.reduceOnly && Math.sign(after) !== Math.sign(before)) after = 0;
  const adds = Math.abs(after) > Math.abs(before) && Math.sign(after) === Math.sign(before);
  const flips = before === 0 || (after !== 0 && Math.sign(after) !== Math.sign(before));
  const entryAfter = flips
    ? price
    : adds
      ? (Math.abs(before) * entryBefore + (Math.abs(after) - Math.abs(before)) * price) / Math.abs(after)
      : entryBefore;
  const notional = qty * price;
  const initialMargin = notional / config.leverage;

  let walletBalance: number;
  let otherMaintMargin = 0;
  let otherUnrealizedPnl = 0;
  if (config.marginType === 'isolated') {
    const heldMargin = Number(held?.initialMargin ?? 0);
    if (flips) walletBalance = (Math.abs(after) * price) / config.leverage;
    else if (adds)
      walletBalance = heldMargin + ((Math.abs(after) - Math.abs(before)) * price) / config.leverage;
    // Reducing releases its share of the margin
    else walletBalance = before === 0 ? 0 : (heldMargin * Math.abs(after)) / Math.abs(before);
  } else {
    walletBalance = Number(account.totalWalletBalance);
    otherMaintMargin = Number(account.totalMaintMargin) - Number(held?.maintenanceMargin ?? 0);
    otherUnrealizedPnl = Number(account.totalUnrealizedPnl) - Number(held?.unrealizedPnl ?? 0);
  }
  const lp =
    after === 0
      ? Number.NaN
      : liquidationPrice({
          qty: after,
          entryPrice: entryAfter,
          walletBalance,
          otherMaintMargin,
          otherUnrealizedPnl,
          brackets: input.brackets ?? BTCUSDT_BRACKETS,
        });
  return {
    symbol: order.symbol,
    price: decimal(price),
    notional: decimal(notional),
    initialMargin: decimal(initialMargin),
    marginType: config.marginType,
    leverage: config.leverage,
    positionAfter: decimal(after),
    liquidationPrice: Number.isFinite(lp) && lp > 0 ? decimal(lp) : null,
    availableBalance: account.availableBalance,
    bracketsSource: input.brackets ? 'exchange' : 'default',
  };
}
