import { ConfirmDialog } from '@kestrel/ui/dialog';

export interface CommandWords {
  title: string;
  /** What will happen, exactly */
  body: string;
  confirm: string;
  destructive: boolean;
}

/**
 * Every confirmation of the bots remote (a bot's start, stop and delete; an agent's kill, reset and promotion):
 * ui's `ConfirmDialog` with the words of the command; it keeps the dialog open with the server's refusal (e.g. the
 * failing gates of a promotion) when there is one
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
  return (
    <ConfirmDialog
      open={words !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={words?.title}
      description={words?.body}
      confirmLabel={words?.confirm ?? ''}
      destructive={words?.destructive}
      onConfirm={onConfirm}
    />
  );
}
