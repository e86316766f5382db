import { expect, type Page, test } from '@playwright/test';
import { signUp } from '../support/auth';
import { connectBinance } from '../support/exchange';
import {
  createSimAccount,
  releaseSimPrice,
  type SimKeys,
  setSimPrice,
  simLastPrice,
  simSignedGet,
  simSignedPost,
} from '../support/sim';

// ETHUSDT: no other browser test holds its price
const SYMBOL = 'ETHUSDT';

/** The account's waiting stop-losses on the exchange, as "STOP_MARKET 2900.00" */
async function stopsOnExchange(keys: SimKeys): Promise<string[]> {
  const open = await simSignedGet<Array<{ orderType: string; triggerPrice: string; closePosition: boolean }>>(
    keys,
    '/fapi/v1/openAlgoOrders',
    { symbol: SYMBOL },
  );
  return open
    .filter((o) => o.orderType === 'STOP_MARKET' && o.closePosition)
    .map((o) => `STOP_MARKET ${Number(o.triggerPrice).toFixed(2)}`);
}

/** Presses the line's grip and drags it `dy` px (negative: up, a higher price), in small steps as a hand would */
async function dragGrip(page: Page, label: string, dy: number) {
  const grip = page.locator('[data-grip]').filter({ hasText: label });
  await expect(grip).toBeVisible();
  await grip.scrollIntoViewIfNeeded();
  // The scale settles as the lines arrive (it widens to keep the TP/SL in view): the grip is taken once it stays put
  // over a few frames, as a hand would reach for it
  const frames = () =>
    page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  await expect
    .poll(async () => {
      const before = await grip.boundingBox();
      await frames();
      const after = await grip.boundingBox();
      return before !== null && after !== null && before.y === after.y;
    })
    .toBe(true);
  const box = await grip.boundingBox();
  if (!box) throw new Error(`the ${label} grip has no box`);
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x, y + dy, { steps: 8 });
  await page.mouse.up();
}

test.describe('TP/SL lines dragged on the chart (simulator)', () => {
  test.afterEach(() => releaseSimPrice(SYMBOL).then(() => undefined));

  test('a dragged stop-loss is confirmed, then stands on the exchange at the new price; a canceled drag changes nothing', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const keys = await createSimAccount({ balances: { USDT: '20000' } });
    const price = Math.round(await simLastPrice(SYMBOL));
    await setSimPrice(SYMBOL, { price: price.toFixed(2) });
    // A long with its stop-loss, placed as another app would: the page must find both on the exchange
    await simSignedPost(keys, '/fapi/v1/order', {
      symbol: SYMBOL,
      side: 'BUY',
      type: 'MARKET',
      quantity: '1',
    });
    const stop = (price * 0.99).toFixed(2);
    await simSignedPost(keys, '/fapi/v1/algoOrder', {
      algoType: 'CONDITIONAL',
      symbol: SYMBOL,
      side: 'SELL',
      type: 'STOP_MARKET',
      triggerPrice: stop,
      closePosition: 'true',
      workingType: 'MARK_PRICE',
    });
    expect(await stopsOnExchange(keys)).toEqual([`STOP_MARKET ${stop}`]);

    await signUp(page, { keepConnectModal: true });
    await connectBinance(page, keys);
    await page.goto(`/dashboard?symbol=${SYMBOL}&interval=1m`);
    await expect(page.getByRole('figure', { name: `${SYMBOL} · 1m` })).toBeVisible();

    // Dropped, then backed out of: the dialog goes, the exchange keeps the stop where it was
    await dragGrip(page, 'SL', -12);
    const dialog = page.getByRole('dialog', { name: 'Move stop-loss' });
    await expect(dialog).toContainText(`Move the ${SYMBOL} long's stop-loss from`);
    await dialog.getByRole('button', { name: 'Back' }).click();
    await expect(dialog).toBeHidden();
    expect(await stopsOnExchange(keys)).toEqual([`STOP_MARKET ${stop}`]);

    // Dropped higher and confirmed: the old stop is canceled and one at the dropped price placed
    await dragGrip(page, 'SL', -12);
    await expect(dialog).toBeVisible();
    const sentence = (await dialog.textContent()) ?? '';
    const to = /to ([\d,.]+): it closes the whole position/.exec(sentence)?.[1]?.replaceAll(',', '');
    if (!to) throw new Error(`no new price in "${sentence}"`);
    expect(Number(to)).toBeGreaterThan(Number(stop));
    expect(Number(to)).toBeLessThan(price);
    await dialog.getByRole('button', { name: 'Move stop-loss' }).click();
    await expect(dialog).toBeHidden();
    await expect
      .poll(() => stopsOnExchange(keys), { timeout: 20_000 })
      .toEqual([`STOP_MARKET ${Number(to).toFixed(2)}`]);
    // The chart draws it at the new price: its line's title is on the axis
    await expect(page.locator('[data-grip]').filter({ hasText: 'SL' })).toBeVisible();
  });
});
