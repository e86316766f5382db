import type {
  AnalyticsDay,
  DashboardOverview,
  KillSwitchResult,
  TradingEnvironment,
} from '@kestrel/contracts';
import type { BotsSummary } from '@kestrel/contracts/bots';

/** The answers of the chat's commands, in plain text: a phone screen, no markup to escape */

type BotLine = BotsSummary['bots'][number];

const DAY_MS = 86_400_000;
/** How many characters of a bot's id the chat shows (and `/stop` takes) */
export const ID_PREFIX = 8;

const money = (v: number | string) =>
  Number(v).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const signed = (v: number | string) => `${Number(v) >= 0 ? '+' : ''}${money(v)}`;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** /status: the account's figures (`overview` null when no key is stored) and the running bots */
export function statusAnswer(
  environment: TradingEnvironment,
  overview: DashboardOverview | null,
  bots: Pick<BotsSummary, 'running'>,
): string {
  const running = `Bots running: ${bots.running}`;
  if (!overview)
    return `No Binance API key is stored for ${environment}: connect Binance in Kestrel's Settings.\n${running}`;
  return [
    `Account (${environment})`,
    `Equity ${money(overview.marginBalance)} USDT (wallet ${money(overview.walletBalance)})`,
    `Unrealized PnL ${signed(overview.unrealizedPnl)} USDT`,
    `Available ${money(overview.availableMargin)} USDT`,
    `Open positions: ${overview.openPositions} · open orders: ${overview.openOrders}`,
    running,
  ].join('\n');
}

/** /profit: realized PnL and the net result (fees and funding in) of today, 7 and 30 UTC days, from `days` */
export function profitAnswer(
  environment: TradingEnvironment,
  now: number,
  days: readonly AnalyticsDay[],
): string {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const windows = [
    ['Today', today],
    ['7 days', today - 6 * DAY_MS],
    ['30 days', today - 29 * DAY_MS],
  ] as const;
  const lines = windows.map(([label, from]) => {
    const inside = days.filter((d) => d.day >= from);
    const realized = inside.reduce((acc, d) => acc + Number(d.realizedPnl), 0);
    const net = inside.reduce((acc, d) => acc + Number(d.net), 0);
    return `${label}: ${signed(realized)} USDT (net ${signed(net)} after fees and funding)`;
  });
  return [`Realized PnL (${environment}, UTC days)`, ...lines].join('\n');
}

const botLine = (b: BotLine) =>
  `• ${b.name} [${b.id.slice(0, ID_PREFIX)}] ${b.state}, ${b.symbol} ${b.mode}, PnL ${signed(
    b.realizedPnl + b.unrealizedPnl,
  )} USDT (today ${signed(b.todayPnl)})`;

/** /bots: each bot with its state, symbol and PnL (realized + unrealized), running ones first */
export function botsAnswer(summary: BotsSummary): string {
  if (summary.bots.length === 0) return "No bots yet: create one on Kestrel's Bot hub.";
  return [
    `${plural(summary.total, 'bot')}, ${summary.running} running. PnL ${signed(
      summary.realizedPnl + summary.unrealizedPnl,
    )} USDT (today ${signed(summary.todayPnl)})`,
    ...summary.bots.map(botLine),
  ].join('\n');
}

/**
 * The bots `/stop <words>` names: the exact id or name first (any case), else those whose id or name starts with
 * the words. Several are ambiguous: the chat is told them
 */
export function matchBots(bots: readonly BotLine[], words: string): BotLine[] {
  const asked = words.trim().toLowerCase();
  if (asked === '') return [];
  const rules: ((b: BotLine) => boolean)[] = [
    (b) => b.id.toLowerCase() === asked || b.name.toLowerCase() === asked,
    (b) =>
      (asked.length >= 4 && b.id.toLowerCase().startsWith(asked)) || b.name.toLowerCase().startsWith(asked),
  ];
  for (const rule of rules) {
    const found = bots.filter(rule);
    if (found.length > 0) return found;
  }
  return [];
}

export function stopChoices(bots: readonly BotLine[], words: string, found: readonly BotLine[]): string {
  if (bots.length === 0) return 'You have no bots to stop.';
  if (words.trim() === '') return `Which bot? Send /stop <bot name or id>.\n${bots.map(botLine).join('\n')}`;
  if (found.length === 0)
    return `No bot matches “${words.trim()}”. Your bots:\n${bots.map(botLine).join('\n')}`;
  return `“${words.trim()}” matches ${found.length} bots; send more of the name or the id:\n${found
    .map(botLine)
    .join('\n')}`;
}

/** What the kill switch did, as the chat is told */
export function killAnswer(result: KillSwitchResult): string {
  const orders = result.orders.filter((o) => o.ok).length;
  const positions = result.positions.filter((p) => p.ok).length;
  const done = `Kill switch done: stopped ${plural(result.botsStopped, 'bot')}, canceled ${orders} of ${plural(
    result.orders.length,
    'order',
  )}, closed ${positions} of ${plural(result.positions.length, 'position')}.`;
  if (result.failed === 0) return done;
  const failures = [
    ...result.errors,
    ...result.orders
      .filter((o) => !o.ok)
      .map((o) => `order ${o.symbol} ${o.orderId}: ${o.error ?? 'failed'}`),
    ...result.positions.filter((p) => !p.ok).map((p) => `position ${p.symbol}: ${p.error ?? 'failed'}`),
  ].slice(0, 5);
  return `${done}\n${plural(result.failed, 'step')} failed (see /risk):\n${failures.map((f) => `• ${f}`).join('\n')}`;
}
