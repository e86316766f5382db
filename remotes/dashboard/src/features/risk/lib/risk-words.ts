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

/** "Grid A", "Grid A and DCA B", "Grid A, Grid B and DCA C" */
export function listWords(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/**
 * What the kill switch will do, as the confirmation states it. Running bots stop first (each cancels its own
 * orders), so the orders counted now include theirs: the switch cancels what is still open after them
 */
export function killSwitchPlan(
  orders: number,
  positions: number,
  runningBots: readonly string[] = [],
): string {
  if (orders === 0 && positions === 0 && runningBots.length === 0)
    return 'Nothing is open: no orders to cancel and no positions to close.';
  const parts = [];
  if (orders > 0)
    parts.push(
      runningBots.length > 0
        ? `cancel what is still open (${plural(orders, 'order')} now, the bots’ included)`
        : `Cancel ${plural(orders, 'order')}`,
    );
  if (positions > 0)
    parts.push(
      `${parts.length > 0 || runningBots.length > 0 ? 'close' : 'Close'} ${plural(positions, 'position')} at market`,
    );
  const rest = parts.length > 0 ? `${parts.join(' and ')}.` : '';
  if (runningBots.length === 0) return rest;
  const bots = `Stop ${plural(runningBots.length, 'running bot')} first (${listWords(runningBots)}), each canceling its own orders`;
  return rest ? `${bots}, then ${rest}` : `${bots}.`;
}

/**
 * The kill switch's outcome in one line: the bots it stopped (their orders canceled as they stopped), then the
 * orders and positions it found after them
 */
export function killSwitchSummary(result: {
  botsStopped: number;
  orders: readonly { ok: boolean }[];
  positions: readonly { ok: boolean }[];
  failed: number;
}): string {
  const canceled = result.orders.filter((o) => o.ok).length;
  const closed = result.positions.filter((p) => p.ok).length;
  const bots =
    result.botsStopped > 0
      ? `Stopped ${plural(result.botsStopped, 'bot')}, each canceling its own orders; then canceled `
      : 'Canceled ';
  return (
    `${bots}${canceled} of ${plural(result.orders.length, 'order')}${result.botsStopped > 0 ? ' still open' : ''}, ` +
    `closed ${closed} of ${plural(result.positions.length, 'position')}` +
    (result.failed > 0 ? `; ${result.failed} failed` : '')
  );
}
