import { MessageResponseSchema } from '@kestrel/contracts';
import {
  TelegramChatResponseSchema,
  TelegramCommandsResponseSchema,
  type TelegramEvent,
  TelegramLinkCodeResponseSchema,
  TelegramSettingsResponseSchema,
} from '@kestrel/contracts/account';
import { unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { useQuery } from '@tanstack/react-query';
import { notificationKeys, useNotificationMutation } from './notifications-api';

/** How often the status is asked again while a link code waits for the chat's /start */
export const LINK_POLL_MS = 3_000;
/** How often a linked chat's command record is asked again (commands arrive from the phone, not this page) */
export const COMMANDS_POLL_MS = 5_000;

/**
 * Whether the operator set up a bot, its name and the linked chat; asked every `pollMs` while given (a code is
 * shown: the chat links from the phone, and the card turns linked by itself)
 */
export function useTelegram(pollMs: number | false = false) {
  const { api } = useKestrelRuntime();
  return useQuery({
    queryKey: notificationKeys.telegram(),
    refetchInterval: pollMs,
    queryFn: async ({ signal }) =>
      unwrap(
        await api.get('/api/v1/notifications/telegram', { schema: TelegramSettingsResponseSchema, signal }),
      ).data,
  });
}

/** The last commands the linked chat sent and the bot's answers, newest first */
export function useTelegramCommands(limit: number, enabled: boolean) {
  const { api } = useKestrelRuntime();
  return useQuery({
    queryKey: notificationKeys.telegramCommands(limit),
    enabled,
    refetchInterval: enabled ? COMMANDS_POLL_MS : false,
    queryFn: async ({ signal }) =>
      unwrap(
        await api.get('/api/v1/notifications/telegram/commands', {
          query: { limit },
          schema: TelegramCommandsResponseSchema,
          signal,
        }),
      ).data,
  });
}

/** A one-time code for `/start <code>`; the API client asks for the password first when the server wants it */
export function useCreateTelegramLinkCode() {
  const { api } = useKestrelRuntime();
  return useNotificationMutation(
    async (_: undefined) =>
      unwrap(
        await api.post(
          '/api/v1/notifications/telegram/link-code',
          {},
          { schema: TelegramLinkCodeResponseSchema },
        ),
      ).data,
  );
}

export function useUpdateTelegramEvents() {
  const { api } = useKestrelRuntime();
  return useNotificationMutation(
    async (events: TelegramEvent[]) =>
      unwrap(
        await api.request({
          path: '/api/v1/notifications/telegram/events',
          method: 'PUT',
          body: { events },
          schema: TelegramChatResponseSchema,
        }),
      ).data,
  );
}

export function useUnlinkTelegram() {
  const { api } = useKestrelRuntime();
  return useNotificationMutation(async (_: undefined) =>
    unwrap(await api.delete('/api/v1/notifications/telegram', { schema: MessageResponseSchema })),
  );
}
