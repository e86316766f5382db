import type { Bot } from '@kestrel/contracts/bots';
import { ConfirmCommand } from '../../../components/confirm-command';
import type { BotAction } from '../api/bot-actions';
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
  return (
    <ConfirmCommand
      words={action ? actionWords(action, bot) : null}
      onClose={() => onOpenChange(false)}
      onConfirm={async () => {
        if (action) await onConfirm(action);
      }}
    />
  );
}
