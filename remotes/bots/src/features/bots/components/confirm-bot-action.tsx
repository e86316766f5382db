import type { Bot } from '@kestrel/contracts';
import { Button } from '@kestrel/ui';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@kestrel/ui/dialog';
import { useState } from 'react';
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
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const words = action ? actionWords(action, bot) : null;

  const change = (open: boolean) => {
    if (pending) return;
    if (!open) setError(null);
    onOpenChange(open);
  };
  const confirm = async () => {
    if (!action) return;
    setPending(true);
    setError(null);
    try {
      await onConfirm(action);
      setPending(false);
      onOpenChange(false);
    } catch (failure) {
      setPending(false);
      setError(failure instanceof Error ? failure.message : String(failure));
    }
  };

  return (
    <Dialog open={action !== null} onOpenChange={change}>
      {words && (
        <DialogContent showCloseButton={!pending}>
          <DialogHeader>
            <DialogTitle>{words.title}</DialogTitle>
            <DialogDescription className="bt:text-base bt:text-foreground">{words.body}</DialogDescription>
          </DialogHeader>
          {error && (
            <p role="alert" className="bt:text-sm bt:text-destructive">
              {error}
            </p>
          )}
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline" disabled={pending}>
                Back
              </Button>
            </DialogClose>
            <Button
              variant={words.destructive ? 'destructive' : 'default'}
              disabled={pending}
              onClick={confirm}
            >
              {pending ? 'Sending…' : words.confirm}
            </Button>
          </DialogFooter>
        </DialogContent>
      )}
    </Dialog>
  );
}
