import type { Bot } from '@kestrel/contracts/bots';
import { ApiError } from '@kestrel/shared-runtime';
import { useTradingEnvironment } from '@kestrel/shared-runtime/react';
import { useState } from 'react';
import { ConfirmCommand } from '../../../components/confirm-command';
import { type BotAction, SYMBOL_SHARED, type useBotAction } from '../api/bot-actions';
import { actionWords } from '../lib/bot-words';

export interface ConfirmBotActionProps {
  bot: Bot;
  action: BotAction | null;
  onOpenChange: (open: boolean) => void;
  /** Sends the action once; a refusal is shown in the dialog, which stays open */
  onConfirm: (action: BotAction) => Promise<unknown>;
}

/** Start, stop and delete go through this: it says exactly what will happen, sends once, and shows a refusal */
export function ConfirmBotAction({ bot, action, onOpenChange, onConfirm }: ConfirmBotActionProps) {
  const { targets } = useTradingEnvironment();
  const target = targets?.find((t) => t.environment === bot.environment);
  return (
    <ConfirmCommand
      words={action ? actionWords(action, bot, target) : null}
      onClose={() => onOpenChange(false)}
      onConfirm={async () => {
        if (action) await onConfirm(action);
      }}
    />
  );
}

/**
 * A page's confirmation of bot actions: `ask(bot, action)` opens it, it sends the action once through `mutation`,
 * and closing it forgets the question. The page renders `dialog` where the confirmation goes
 */
export function useConfirmBotAction(mutation: ReturnType<typeof useBotAction>) {
  const [asked, setAsked] = useState<{ bot: Bot; action: BotAction } | null>(null);
  const dialog = asked && (
    <ConfirmBotAction
      bot={asked.bot}
      action={asked.action}
      onOpenChange={(open) => {
        if (!open) setAsked(null);
      }}
      onConfirm={async (action) => {
        try {
          await mutation.mutateAsync({ id: asked.bot.id, action });
        } catch (err) {
          // The symbol is not the bot's alone: the dialog now asks to start it sharing, the server's words below
          if (action === 'start' && err instanceof ApiError && err.code === SYMBOL_SHARED) {
            setAsked({ bot: asked.bot, action: 'start-shared' });
          }
          throw err;
        }
      }}
    />
  );
  return { ask: (bot: Bot, action: BotAction) => setAsked({ bot, action }), dialog };
}
