import { expect, type Page } from '@playwright/test';
import type { SimKeys } from './sim';

/**
 * Connects Binance with these keys through the open Connect Exchange modal, as a user does: the Binance card's
 * Connect Exchange, the two keys, submit; ends when the success toast shows and the modal has closed
 */
export async function connectBinance(page: Page, keys: SimKeys): Promise<void> {
  const modal = page.getByRole('dialog', { name: 'Connect Exchange' });
  await expect(modal).toBeVisible();
  await modal
    .getByRole('article', { name: 'Binance' })
    .getByRole('button', { name: 'Connect Exchange' })
    .click();
  const form = modal.getByRole('form', { name: 'Connect Binance Exchange' });
  await form.getByLabel('API Key').fill(keys.apiKey);
  await form.getByLabel('Secret Key').fill(keys.secretKey);
  await form.getByRole('button', { name: 'Connect Exchange' }).click();
  await expect(page.getByText('Successfully connected to Binance', { exact: true })).toBeVisible();
  await expect(modal).toBeHidden();
}
