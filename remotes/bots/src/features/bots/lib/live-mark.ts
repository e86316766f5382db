import type { BotStatus } from '@kestrel/contracts/bots';

/**
 * A running bot's figures at the exchange's mark price as it is pushed: the server computes them at its last
 * figures (a bar's close, a fill), so between two reads the mark, the unrealized PnL and today's PnL follow the
 * pushed price; the position, entry and realized PnL stay the server's. No push (or a flat bot): as read
 */
export function atLiveMark(status: BotStatus, mark: number | undefined): BotStatus {
  if (mark === undefined || !Number.isFinite(mark) || status.entryPrice === null || status.positionQty === 0)
    return mark === undefined || !Number.isFinite(mark) ? status : { ...status, markPrice: mark };
  const unrealizedPnl = status.positionQty * (mark - status.entryPrice);
  return {
    ...status,
    markPrice: mark,
    unrealizedPnl,
    todayPnl: status.todayPnl - status.unrealizedPnl + unrealizedPnl,
  };
}
