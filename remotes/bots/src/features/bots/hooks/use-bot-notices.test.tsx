import type { BotEvent } from '@kestrel/contracts/bots';
import { QueryClient } from '@tanstack/react-query';
import { waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderOnPushSocket } from '../../../test/push-socket';
import { botKeys } from '../api/bot-keys';
import { useBotNotices } from './use-bot-notices';

const BOT = '7d1c5a3e-4f7b-4c2e-9a57-0b7f3c2d1e00';

function line(n: number): BotEvent {
  return {
    id: `e${n}`,
    botId: BOT,
    kind: 'order_sent',
    message: `Buy limit ${n}`,
    data: {},
    time: 1_000 + n,
  };
}

function Notices() {
  useBotNotices();
  return null;
}

async function setup() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(botKeys.events(BOT), [line(0)]);
  const invalidated = vi.spyOn(queryClient, 'invalidateQueries');
  const { push } = await renderOnPushSocket('notifications/bot', queryClient, <Notices />);
  return { push, queryClient, invalidated };
}

const keysOf = (spy: { mock: { calls: unknown[][] } }) =>
  spy.mock.calls.map((call) => JSON.stringify((call[0] as { queryKey: unknown }).queryKey));

describe('bot pushes on the live socket', () => {
  it('put the lines they carry on top of the log at once, each once, and refetch the figures once per burst', async () => {
    const { push, queryClient, invalidated } = await setup();
    for (let n = 1; n <= 12; n++) push({ botId: BOT, type: 'order_sent', time: 1_000 + n, event: line(n) });
    // A line pushed twice (a reconnect replaying it) is not shown twice
    push({ botId: BOT, type: 'order_sent', time: 1_012, event: line(12) });
    await waitFor(() => expect(queryClient.getQueryData<BotEvent[]>(botKeys.events(BOT))).toHaveLength(13));
    expect(
      queryClient
        .getQueryData<BotEvent[]>(botKeys.events(BOT))
        ?.map((e) => e.id)
        .slice(0, 3),
    ).toEqual(['e12', 'e11', 'e10']);
    await waitFor(() => expect(keysOf(invalidated)).toHaveLength(3));
    expect(keysOf(invalidated).sort()).toEqual(
      [botKeys.status(BOT), botKeys.list(), botKeys.summary()].map((k) => JSON.stringify(k)).sort(),
    );
  });

  it('without a line in the push, read the log again', async () => {
    const { push, invalidated } = await setup();
    push({ botId: BOT, type: 'stopped', time: 2_000 });
    await waitFor(() => expect(keysOf(invalidated)).toContain(JSON.stringify(botKeys.events(BOT))));
  });

  it('a signal the webhook received reads the bot’s signals list again, with its status', async () => {
    const { push, invalidated } = await setup();
    push({
      botId: BOT,
      type: 'signal_received',
      time: 3_000,
      event: { ...line(20), kind: 'signal_received' },
    });
    await waitFor(() => expect(keysOf(invalidated)).toContain(JSON.stringify(botKeys.signals(BOT))));
    expect(keysOf(invalidated)).toContain(JSON.stringify(botKeys.status(BOT)));
  });
});
