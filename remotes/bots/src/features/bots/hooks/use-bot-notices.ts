import type { BotNotice } from '@kestrel/contracts';
import { type BotEvent, BotEventSchema } from '@kestrel/contracts/bots';
import { useLiveEvent } from '@kestrel/shared-runtime/react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { botKeys } from '../api/bot-keys';
import { BOT_LOG_LIMIT } from '../api/get-bot-events';

/**
 * Pushes of one burst (a grid bot placing a dozen orders on one bar) make one refetch: without it each push would
 * cancel the fetch the previous one started
 */
export const BOT_NOTICE_COALESCE_MS = 150;

/** A push that carries the log line itself (`event`), checked against the contract; otherwise null */
function pushedEvent(notice: BotNotice): BotEvent | null {
  const parsed = BotEventSchema.safeParse((notice as Record<string, unknown>).event);
  return parsed.success && parsed.data.botId === notice.botId ? parsed.data : null;
}

/**
 * Applies `notifications/bot` pushes: a line the push carries goes to the top of the bot's cached log at once (the
 * log streams without a request); then, once per burst, the status of each bot that pushed, the list and the
 * summary are read again, since a push means the bot did something (a fill moves PnL, a stop changes its state)
 */
export function useBotNotices(): void {
  const queryClient = useQueryClient();
  const pending = useRef<{
    bots: Set<string>;
    logs: Set<string>;
    /** Bots with a new fill: their chart and PnL curve are read again too */
    filled: Set<string>;
    /** Bots whose webhook received a signal: their signals list is read again too */
    signaled: Set<string>;
    timer: ReturnType<typeof setTimeout> | undefined;
  }>({ bots: new Set(), logs: new Set(), filled: new Set(), signaled: new Set(), timer: undefined });

  useEffect(() => {
    const state = pending.current;
    return () => clearTimeout(state.timer);
  }, []);

  useLiveEvent('bot', (notice) => {
    const event = pushedEvent(notice);
    const state = pending.current;
    if (event) {
      queryClient.setQueryData<BotEvent[]>(botKeys.events(notice.botId), (log) =>
        log && !log.some((line) => line.id === event.id) ? [event, ...log].slice(0, BOT_LOG_LIMIT) : log,
      );
    } else {
      state.logs.add(notice.botId);
    }
    state.bots.add(notice.botId);
    if (notice.type === 'order_filled') state.filled.add(notice.botId);
    if (notice.type === 'signal_received') state.signaled.add(notice.botId);
    if (state.timer !== undefined) return;
    state.timer = setTimeout(() => {
      const bots = [...state.bots];
      const logs = [...state.logs];
      const filled = [...state.filled];
      const signaled = [...state.signaled];
      state.bots.clear();
      state.logs.clear();
      state.filled.clear();
      state.signaled.clear();
      state.timer = undefined;
      for (const id of logs) void queryClient.invalidateQueries({ queryKey: botKeys.events(id) });
      for (const id of bots) void queryClient.invalidateQueries({ queryKey: botKeys.status(id) });
      for (const id of filled) void queryClient.invalidateQueries({ queryKey: botKeys.performance(id) });
      for (const id of signaled) void queryClient.invalidateQueries({ queryKey: botKeys.signals(id) });
      void queryClient.invalidateQueries({ queryKey: botKeys.list() });
      void queryClient.invalidateQueries({ queryKey: botKeys.summary() });
    }, BOT_NOTICE_COALESCE_MS);
  });
}
