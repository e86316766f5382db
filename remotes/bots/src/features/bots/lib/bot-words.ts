import type { EnvironmentTarget } from '@kestrel/contracts';
import type { Bot, BotState } from '@kestrel/contracts/bots';
import type { BadgeProps } from '@kestrel/ui';
import type { BotAction } from '../api/bot-actions';

export const STATE_LABELS: Record<BotState, string> = {
  running: 'Running',
  starting: 'Starting',
  stopping: 'Stopping',
  stopped: 'Stopped',
  error: 'Error',
};

export const STATE_BADGES: Record<BotState, NonNullable<BadgeProps['variant']>> = {
  running: 'success',
  starting: 'secondary',
  stopping: 'secondary',
  stopped: 'outline',
  error: 'destructive',
};

/** The hub's groups: a bot on its way up or down counts with where it is going */
export type BotGroup = 'running' | 'stopped' | 'error';
export const GROUP_OF: Record<BotState, BotGroup> = {
  running: 'running',
  starting: 'running',
  stopping: 'stopped',
  stopped: 'stopped',
  error: 'error',
};
export const GROUP_TITLES: Record<BotGroup, string> = {
  running: 'Running',
  stopped: 'Stopped',
  error: 'Error',
};

export function groupBots(bots: readonly Bot[]): Record<BotGroup, Bot[]> {
  const groups: Record<BotGroup, Bot[]> = { running: [], stopped: [], error: [] };
  for (const bot of bots) groups[GROUP_OF[bot.state]].push(bot);
  return groups;
}

export const isLive = (state: BotState) => state === 'running' || state === 'starting';
/** Only a stopped (or errored) bot may be changed, deleted or started */
export const isIdle = (state: BotState) => state === 'stopped' || state === 'error';

/** "3 d 4 h", "2 h 5 min", "45 s": how long a bot has been running */
/**
 * A running bot's uptime now: the server's figure at its read (`readAt`) plus the time since, so it ticks between
 * reads; anything else as read
 */
export function uptimeNow(
  uptimeMs: number | null,
  readAt: number,
  now: number,
  running: boolean,
): number | null {
  if (uptimeMs === null || !running || !(readAt > 0)) return uptimeMs;
  return uptimeMs + Math.max(0, now - readAt);
}

export function formatUptime(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms) || ms < 0) return '—';
  const s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3_600);
  const m = Math.floor((s % 3_600) / 60);
  if (d > 0) return `${d} d ${h} h`;
  if (h > 0) return `${h} h ${m} min`;
  if (m > 0) return `${m} min ${s % 60} s`;
  return `${s} s`;
}

/** "Futures grid · BTCUSDT 1h · 5× · paper" */
export function describeBot(bot: Bot, strategyName: string): string {
  return `${strategyName} · ${bot.symbol} ${bot.interval} · ${bot.leverage}× · ${bot.mode}`;
}

/** Where a live bot's orders go and whether its money is real, in words (see `liveAccountWords`) */
export interface LiveAccountWords {
  /** "your Binance account", "your Binance testnet account", "your account on the exchange simulator" */
  account: string;
  /** "profits and losses are real", "fake funds: no real money" */
  money: string;
  real: boolean;
}

/**
 * The account a live bot trades, as the server reaches the bot's environment: only mainnet is real money. Not
 * known yet (the server has not answered): said as real, the cautious reading
 */
export function liveAccountWords(target: Pick<EnvironmentTarget, 'kind'> | undefined): LiveAccountWords {
  if (target?.kind === 'simulator')
    return {
      account: 'your account on the exchange simulator',
      money: 'demo funds: no real money',
      real: false,
    };
  if (target?.kind === 'binance-testnet')
    return { account: 'your Binance testnet account', money: 'fake funds: no real money', real: false };
  return { account: 'your Binance account', money: 'profits and losses are real', real: true };
}

export interface ActionWords {
  title: string;
  /** What will happen, exactly, before the user confirms */
  body: string;
  confirm: string;
  destructive: boolean;
}

/**
 * What each action's confirmation says; live bots say that real orders are involved, on which account, and
 * whether its money is real (`target`: the bot's environment as the server reaches it)
 */
export function actionWords(
  action: BotAction,
  bot: Bot,
  target?: Pick<EnvironmentTarget, 'kind'>,
): ActionWords {
  const live = bot.mode === 'live';
  const where = liveAccountWords(target);
  if (action === 'start') {
    return {
      title: `Start ${bot.name}?`,
      body: live
        ? `It will place real orders on ${bot.symbol} with ${where.account} (${where.money}), up to its budget of ${bot.budget} USDT, until you stop it.`
        : `It will trade ${bot.symbol} on paper (no real orders) with a budget of ${bot.budget} USDT, until you stop it.`,
      confirm: 'Start bot',
      destructive: false,
    };
  }
  if (action === 'start-shared') {
    return {
      title: `Start ${bot.name} sharing ${bot.symbol}?`,
      body: `It will place real orders on ${bot.symbol} with ${where.account} (${where.money}), next to what is already there, up to its budget of ${bot.budget} USDT, until you stop it.`,
      confirm: `Start sharing ${bot.symbol}`,
      destructive: true,
    };
  }
  if (action === 'stop') {
    return {
      title: `Stop ${bot.name}?`,
      body: live
        ? `Its open orders on ${bot.symbol} will be canceled and it will place no new ones. A position it holds stays open: close it on Portfolio if you want out.`
        : `Its paper orders will be canceled and it will place no new ones.`,
      confirm: 'Stop bot',
      destructive: true,
    };
  }
  return {
    title: `Delete ${bot.name}?`,
    body: 'The bot, its settings and its log will be removed for good. Orders and trades it made on the exchange stay in your history.',
    confirm: 'Delete bot',
    destructive: true,
  };
}
