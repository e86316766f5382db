import type { LimitUsage, RiskLimitName } from '@kestrel/contracts';

/** How each limit is called on the page */
export const LIMIT_LABELS: Record<RiskLimitName, string> = {
  maxLeverage: 'Max leverage',
  dailyLossLimit: 'Daily loss',
  maxDrawdownPercent: 'Max drawdown',
  maxPositionNotional: 'Position notional',
};

const number = (n: number, digits = 2) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });

/** A limit's figure with its unit: "1.5×", "40 USDT", "12.5 %" */
export function limitFigure(name: RiskLimitName, value: number): string {
  if (name === 'maxLeverage') return `${number(value)}×`;
  if (name === 'maxDrawdownPercent') return `${number(value)} %`;
  return `${number(value)} USDT`;
}

/** "40 % of limit used", "no limit set", "limit reached" */
export function usageText(u: LimitUsage): string {
  if (u.limit === null || u.usedPercent === null) return 'No limit set';
  const used = `${number(u.usedPercent, 0)} % of limit used`;
  return u.breached ? `Limit reached: ${used}` : used;
}

/** "1 order", "3 orders" */
export const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** What the kill switch will do, as the confirmation states it */
export function killSwitchPlan(orders: number, positions: number): string {
  if (orders === 0 && positions === 0)
    return 'Nothing is open: no orders to cancel and no positions to close.';
  const parts = [];
  if (orders > 0) parts.push(`Cancel ${plural(orders, 'order')}`);
  if (positions > 0)
    parts.push(`${orders > 0 ? 'close' : 'Close'} ${plural(positions, 'position')} at market`);
  return `${parts.join(' and ')}.`;
}
