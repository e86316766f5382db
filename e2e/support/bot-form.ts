import { expect, type Page } from '@playwright/test';

/** The create-bot form's Next button, as a user presses it: done once the next step's heading has the focus */
export async function nextStep(page: Page, step: string): Promise<void> {
  const form = page.getByRole('form', { name: 'Create bot' });
  await form.getByRole('button', { name: /^Next: / }).click();
  await expect(form.getByRole('heading', { level: 2, name: step })).toBeFocused();
}
