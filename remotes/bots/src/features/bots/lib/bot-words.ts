import type { EnvironmentTarget } from '@kestrel/contracts';
import type { Bot, BotState } from '@kestrel/contracts/bots';
import type { BadgeProps } from '@kestrel/ui';
import type { BotAction } from '../api/bot-actions';

export const STATE_LABELS: Record<BotState, string> = {
  running: 'Running',
  starting: 'Starting',
  stopping: 'Stopping',
  paused: 'Paused',
  stopped: 'Stopped',
  error: 'Error',
};

export const STATE_BADGES: Record<BotState, NonNullable<BadgeProps['variant']>> = {
  running: 'success',
  starting: 'secondary',
  stopping: 'secondary',
  paused: 'warning',
  stopped: 'outline',
  error: 'destructive',
};

/** The hub's groups: a bot on its way up or down counts with where it is going */
export type BotGroup = 'running' | 'paused' | 'stopped' | 'error';
export const GROUP_OF: Record<BotState, BotGroup> = {
  running: 'running',
  starting: 'running',
  stopping: 'stopped',
  paused: 'paused',
  stopped: 'stopped',
  error: 'error',
};
export const GROUP_TITLES: Record<BotGroup, string> = {
  running: 'Running',
  paused: 'Paused',
  stopped: 'Stopped',
  error: 'Error',
};

export function groupBots(bots: readonly Bot[]): Record<BotGroup, Bot[]> {
  const groups: Record<BotGroup, Bot[]> = { running: [], paused: [], stopped: [], error: [] };
  for (const bot of bots) groups[GROUP_OF[bot.state]].push(bot);
  return groups;
}

export const isLive = (state: BotState) => state === 'running' || state === 'starting';
/** A stopped (or errored) bot: nothing of it stands, so it may also be deleted */
export const isIdle = (state: BotState) => state === 'stopped' || state === 'error';
/** What a bot's buttons offer in its state: a paused one starts again (resumes), stops or changes, never deletes */
export const canStart = (state: BotState) => isIdle(state) || state === 'paused';
export const canStop = (state: BotState) => isLive(state) || state === 'paused';
/** A running bot changes too: its name at once, the rest by a restart the form asks for */
export const canEdit = (state: BotState) => canStart(state) || state === 'running';

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
  if (action === 'start' && bot.state === 'paused') {
    return {
      title: `Resume ${bot.name}?`,
      body: live
        ? `The orders it left standing on ${bot.symbol} are canceled, then it lays its orders anew from the price now: real orders with ${where.account} (${where.money}), up to its budget of ${bot.budget} USDT, until you stop it.`
        : `It lays its paper orders anew from the price now (no real orders), with a budget of ${bot.budget} USDT, until you stop it.`,
      confirm: 'Resume bot',
      destructive: false,
    };
  }
  if (action === 'pause') {
    return {
      title: `Pause ${bot.name}?`,
      body: live
        ? `Its open orders on ${bot.symbol} stay on the exchange, where they may fill, and it places no new order (not even the counter-order of a fill) until you resume it. Resuming cancels what still stands and lays its orders anew from the price then.`
        : `A paper bot's orders live only while it runs: they are withdrawn, and it places nothing until you resume it, which lays them anew from the price then.`,
      confirm: 'Pause bot',
      destructive: false,
    };
  }
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
  if (action === 'stop' && bot.state === 'paused') {
    return {
      title: `Stop ${bot.name}?`,
      body: live
        ? `The orders it left standing on ${bot.symbol} when it was paused will be canceled. A position it holds stays open: close it on Portfolio if you want out.`
        : 'It will stay stopped; its paper orders went with its pause.',
      confirm: 'Stop bot',
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
