import { type BotEvent, BotEventSchema, type BotNotice } from '@kestrel/contracts';
import { useLiveEvent } from '@kestrel/shared-runtime/react';
import { useQueryClient } from '@tanstack/react-query';
import { botKeys } from '../api/bot-keys';
import { BOT_LOG_LIMIT } from '../api/get-bot-events';

/** A push that carries the log line itself (`event`), checked against the contract; otherwise null */
function pushedEvent(notice: BotNotice): BotEvent | null {
  const parsed = BotEventSchema.safeParse((notice as Record<string, unknown>).event);
  return parsed.success && parsed.data.botId === notice.botId ? parsed.data : null;
}

/**
 * Applies `notifications/bot` pushes: a line the push carries goes to the top of the bot's cached log at once (the
 * log streams without a request); then its status, the list and the summary are read again, since a push means the
 * bot did something (a fill moves PnL, a stop changes its state)
 */
export function useBotNotices(): void {
  const queryClient = useQueryClient();
  useLiveEvent('bot', (notice) => {
    const event = pushedEvent(notice);
    if (event) {
      queryClient.setQueryData<BotEvent[]>(botKeys.events(notice.botId), (log) =>
        log && !log.some((line) => line.id === event.id) ? [event, ...log].slice(0, BOT_LOG_LIMIT) : log,
      );
    } else {
      void queryClient.invalidateQueries({ queryKey: botKeys.events(notice.botId) });
    }
    void queryClient.invalidateQueries({ queryKey: botKeys.status(notice.botId) });
    void queryClient.invalidateQueries({ queryKey: botKeys.list() });
    void queryClient.invalidateQueries({ queryKey: botKeys.summary() });
  });
}
