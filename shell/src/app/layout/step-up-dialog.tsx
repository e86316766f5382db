import type { StepUp } from '@kestrel/shared-runtime';
import { Button, Field, Input } from '@kestrel/ui';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@kestrel/ui/dialog';
import { type FormEvent, useState } from 'react';

/** The password again before a guarded action; the call that asked goes on once the server accepts it */
export default function StepUpDialog({ stepUp }: { stepUp: StepUp }) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!password) {
      setError('Password is required');
      return;
    }
    setBusy(true);
    setError(null);
    const result = await stepUp.submit(password);
    setBusy(false);
    if (!result.ok) setError(result.error);
  };

  return (
    <Dialog open onOpenChange={(open) => !open && stepUp.cancel()}>
      <DialogContent>
        <form onSubmit={(e) => void submit(e)} noValidate className="sh:flex sh:flex-col sh:gap-4">
          <DialogHeader>
            <DialogTitle>Confirm it is you</DialogTitle>
            <DialogDescription>
              Enter your password to continue. Exchange keys, mainnet and live bots ask for it again after 5
              minutes.
            </DialogDescription>
          </DialogHeader>
          <Field label="Password" error={error ?? undefined}>
            {(wiring) => (
              <Input
                {...wiring}
                type="password"
                autoComplete="current-password"
                autoFocus
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
            )}
          </Field>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => stepUp.cancel()}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              {busy ? 'Checking…' : 'Confirm'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
