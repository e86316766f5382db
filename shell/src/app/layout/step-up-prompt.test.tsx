import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderOffline } from '../../test/offline-runtime';
import { StepUpPrompt } from './step-up-prompt';

// Nothing listens on port 1: the password check cannot reach a server (the server's side of step-up is tested in
// shared-runtime's step-up.server.test.ts)
const show = () => renderOffline(<StepUpPrompt />);

describe('the step-up prompt', () => {
  it('shows nothing until a guarded call asks, and without the prompt mounted nobody is asked', async () => {
    const { runtime: r, view } = show();
    expect(screen.queryByRole('dialog')).toBeNull();
    view.unmount();
    // Unmounted, the prompt is detached: the call gets the server's refusal instead of waiting for ever
    expect(await r.stepUp.request()).toBe(false);
  });

  it('asks for the password, says what is wrong, and Cancel lets the waiting call fail', async () => {
    const { runtime: r } = show();
    const asked = r.stepUp.request();
    // The dialog is a chunk of its own, loaded on the first ask (slow to import on a loaded machine)
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it is you' }, { timeout: 10_000 });

    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(dialog.textContent).toContain('Password is required'));

    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'my password' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    // The server's answer (here: none) is shown, and the prompt stays for another try
    await waitFor(() => expect(dialog.textContent).toContain('Connection failed to http://127.0.0.1:1'));
    expect(r.stepUp.pending).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await asked).toBe(false);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
