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

export interface CommandWords {
  title: string;
  /** What will happen, exactly */
  body: string;
  confirm: string;
  destructive: boolean;
}

/**
 * Every confirmation of the bots remote (a bot's start, stop and delete; an agent's kill, reset and promotion):
 * says what will happen, sends once, and keeps the dialog open with the server's refusal (e.g. the failing gates of
 * a promotion) when there is one
 */
export function ConfirmCommand({
  words,
  onClose,
  onConfirm,
}: {
  words: CommandWords | null;
  onClose: () => void;
  onConfirm: () => Promise<unknown>;
}) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const change = (open: boolean) => {
    if (pending || open) return;
    setError(null);
    onClose();
  };
  const confirm = async () => {
    setPending(true);
    setError(null);
    try {
      await onConfirm();
      setPending(false);
      onClose();
    } catch (failure) {
      setPending(false);
      setError(failure instanceof Error ? failure.message : String(failure));
    }
  };
  return (
    <Dialog open={words !== null} onOpenChange={change}>
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
