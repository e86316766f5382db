import { BehaviorSubject, type Observable } from 'rxjs';

/** What the prompt asks the server with: `POST /api/v1/account/step-up` through the API client */
export type ConfirmPassword = (
  password: string,
) => Promise<{ success: true } | { success: false; error: string }>;

export type StepUpSubmit = { ok: true } | { ok: false; error: string };

/**
 * The password again before a guarded action (adding or replacing exchange keys, switching to mainnet, starting a
 * live bot). The server answers such a call 403 `STEP_UP_REQUIRED` unless the session gave its password in the
 * last 5 minutes; the API client then asks here, the host's prompt (the shell's dialog) collects the password, and
 * the call is sent once more. Every remote's guarded call gets the prompt without code of its own.
 */
export interface StepUp {
  /** True while a prompt is waiting for the password */
  readonly pending$: Observable<boolean>;
  readonly pending: boolean;
  /**
   * The API client's side: resolves true once the password is confirmed, false when the user cancels or no
   * host on this page can show the prompt (then the caller sees the server's refusal, which says what to do).
   * Calls made while a prompt is open wait on the same prompt
   */
  request(): Promise<boolean>;
  /** The prompt's side: checks the password with the server; on success every waiting call goes on */
  submit(password: string): Promise<StepUpSubmit>;
  /** The prompt's side: gives up; every waiting call gets the server's refusal */
  cancel(): void;
  /** A host that can show the prompt registers while mounted; returns the unregister function */
  attach(): () => void;
}

export function createStepUp(confirm: ConfirmPassword): StepUp {
  const pending = new BehaviorSubject(false);
  let waiters: ((confirmed: boolean) => void)[] = [];
  let hosts = 0;

  const settle = (confirmed: boolean) => {
    const done = waiters;
    waiters = [];
    pending.next(false);
    for (const resolve of done) resolve(confirmed);
  };

  return {
    pending$: pending.asObservable(),
    get pending() {
      return pending.getValue();
    },
    request() {
      if (hosts === 0) return Promise.resolve(false);
      return new Promise<boolean>((resolve) => {
        waiters.push(resolve);
        if (!pending.getValue()) pending.next(true);
      });
    },
    async submit(password) {
      const result = await confirm(password);
      if (!result.success) return { ok: false, error: result.error };
      settle(true);
      return { ok: true };
    },
    cancel() {
      settle(false);
    },
    attach() {
      hosts += 1;
      let attached = true;
      return () => {
        if (!attached) return;
        attached = false;
        hosts -= 1;
        // The prompt is gone: nobody can answer the calls still waiting
        if (hosts === 0 && waiters.length > 0) settle(false);
      };
    },
  };
}
