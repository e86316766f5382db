import { expect, test } from '@playwright/test';
import { expectAccessible } from '../support/a11y';
import { signUp } from '../support/auth';
import { connectBinance } from '../support/exchange';
import { createSimAccount, SIM_URL } from '../support/sim';

/** The simulator's best bid and ask now, as its REST book says */
async function simTop(): Promise<{ bid: number; ask: number }> {
  const res = await fetch(`${SIM_URL}/fapi/v1/depth?symbol=BTCUSDT&limit=5`);
  const book = (await res.json()) as { bids: [string, string][]; asks: [string, string][] };
  return { bid: Number(book.bids[0]?.[0]), ask: Number(book.asks[0]?.[0]) };
}

const figure = (text: string | null) => Number((text ?? '').replace(/,/g, ''));

test.describe('order book and trades on /dashboard (simulator)', () => {
  test('the book and tape move with the market, and a pressed price becomes the ticket’s limit price', async ({
    page,
  }) => {
    // Sign-up, connect, an order placed and canceled, and axe over a page whose book moves 10 times a second: on a
    // loaded machine that is more than the default 30 s
    test.setTimeout(120_000);
    const keys = await createSimAccount({ balances: { USDT: '5000' } });
    await signUp(page);
    await page.goto('/portfolio');
    await page
      .getByRole('region', { name: 'Portfolio' })
      .getByRole('button', { name: 'Connect exchange' })
      .click();
    await connectBinance(page, keys);
    await page.goto('/dashboard');

    const book = page.getByRole('region', { name: 'Order book' });
    const bids = book.getByRole('table', { name: 'Bids' });
    const bestBid = bids.getByRole('button', { name: /^Use price/ }).first();
    await expect(bestBid).toHaveText(/^\d{1,3}(,\d{3})*\.\d$/);
    // The best bid shown is the exchange's, within the few ticks the market moves between two reads
    const top = await simTop();
    expect(Math.abs(figure(await bestBid.textContent()) - top.bid)).toBeLessThan(top.bid * 0.002);
    // The best ask above the best bid, both read in one frame: the book moves ten times a second, and two reads
    // a moment apart compare two different books
    const [bidText, askText] = await book.evaluate((el) => {
      const bidButtons = el.querySelectorAll('table[aria-label="Bids"] button');
      const askButtons = el.querySelectorAll('table[aria-label="Asks"] button');
      return [bidButtons[0]?.textContent ?? '', askButtons[askButtons.length - 1]?.textContent ?? ''];
    });
    expect(figure(askText)).toBeGreaterThan(figure(bidText));

    // Live: the sizes at the top of the book change as the simulator's book does, without a reload
    const firstSizes = await bids.getByRole('row').allTextContents();
    await expect
      .poll(async () => (await bids.getByRole('row').allTextContents()).join('|'), { timeout: 15_000 })
      .not.toBe(firstSizes.join('|'));

    // The tape fills with trades, newest first, with their UTC time
    const tape = page.getByRole('region', { name: 'Recent trades' });
    await expect(tape.getByRole('row').nth(1)).toContainText(/\d{2}:\d{2}:\d{2}/);

    // A pressed bid becomes the ticket's limit price, as written on the exchange's tick
    const ticket = page.getByRole('form', { name: 'Order ticket' });
    await ticket.getByLabel('Type').selectOption('MARKET');
    // Its price read and the press made in one frame: the book moves ten times a second, and a read then a click a
    // moment later would name one price and press another
    const price = await bids
      .getByRole('button', { name: /^Use price/ })
      .nth(2)
      .evaluate((el) => {
        const text = el.textContent ?? '';
        (el as HTMLElement).click();
        return text.replace(/,/g, '');
      });
    await expect(ticket.getByLabel('Type')).toHaveValue('LIMIT');
    await expect(ticket.getByLabel('Limit price')).toHaveValue(price);

    // Placed from the dashboard, a bid far under the market rests and shows under the chart with the account's
    // orders (far under: the simulator is shared, and another test may move the price through a bid near it)
    const resting = (Math.round(Number(price) * 0.8 * 10) / 10).toFixed(1);
    await ticket.getByLabel('Limit price').fill(resting);
    await ticket.getByLabel(/^Quantity/).fill('0.002');
    await ticket.getByRole('button', { name: 'Review order' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Place order' }).click();
    const orders = page.getByRole('table', { name: 'Open orders' });
    const placed = orders
      .getByRole('row')
      .filter({ hasText: Number(resting).toLocaleString('en-US', { minimumFractionDigits: 1 }) });
    await expect(placed).toHaveCount(1);
    await placed.getByRole('button', { name: /^Cancel buy limit BTCUSDT order \d+$/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel order' }).click();
    await expect(page.getByRole('region', { name: 'Open orders' })).toContainText('No open orders');

    await expectAccessible(page, '[data-remote="dashboard"]');
  });
});
