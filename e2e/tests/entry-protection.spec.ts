import { expect, type Page, test } from '@playwright/test';
import { signUp } from '../support/auth';
import { connectBinance } from '../support/exchange';
import { createSimAccount, releaseSimPrice, setSimPrice, simLastPrice, simSignedGet } from '../support/sim';

// SOLUSDT: no other browser test moves its price, so holding it here disturbs nobody
const SYMBOL = 'SOLUSDT';
const cents = (v: number) => v.toFixed(2);

const ticket = (page: Page) => page.getByRole('form', { name: 'Order ticket' });

test.describe('TP/SL attached to an entry (simulator)', () => {
  test.afterEach(() => releaseSimPrice(SYMBOL).then(() => undefined));

  test('a limit entry with TP/SL waits on the server; once the market fills it, both are on the exchange', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const keys = await createSimAccount({ balances: { USDT: '5000' } });
    const price = Math.round(await simLastPrice(SYMBOL));
    await setSimPrice(SYMBOL, { price: cents(price) });
    const entry = cents(price * 0.98);
    const takeProfit = cents(price * 1.05);
    const stopLoss = cents(price * 0.93);

    await signUp(page);
    await page.goto('/portfolio');
    await page
      .getByRole('region', { name: 'Portfolio' })
      .getByRole('button', { name: 'Connect exchange' })
      .click();
    await connectBinance(page, keys);
    const form = ticket(page);
    await form.getByLabel('Symbol').fill(SYMBOL);
    await form.getByLabel('Symbol').blur();
    await expect(page.getByText(`${SYMBOL}: tick 0.0100`)).toBeVisible();
    await form.getByLabel('Type').selectOption('LIMIT');
    await form.getByLabel(/^Quantity/).fill('3');
    await form.getByLabel('Limit price').fill(entry);
    await form.getByLabel('Take-profit').fill(takeProfit);
    await form.getByLabel('Stop-loss').fill(stopLoss);
    await form.getByRole('button', { name: 'Review order' }).click();

    const dialog = page.getByRole('dialog', { name: 'Place order' });
    await expect(dialog).toContainText(
      `; once it fills, a take-profit at ${Number(takeProfit).toLocaleString('en-US', { minimumFractionDigits: 2 })}`,
    );
    await dialog.getByRole('button', { name: 'Place order' }).click();
    await expect(dialog).toBeHidden();

    // Waiting on the server, not on the exchange
    const attached = page.getByRole('list', { name: 'TP/SL attached to entries' });
    await expect(attached.getByRole('listitem')).toHaveText(
      new RegExp(
        `^${SYMBOL} take-profit [\\d,.]+ · stop-loss [\\d,.]+ — placed once order kweb[0-9a-f]+ fills$`,
      ),
    );
    const waitingOnExchange = () =>
      simSignedGet<Array<{ orderType: string; triggerPrice: string; closePosition: boolean; side: string }>>(
        keys,
        '/fapi/v1/openAlgoOrders',
        { symbol: SYMBOL },
      );
    expect(await waitingOnExchange()).toEqual([]);

    // The market falls through the entry: it fills, and the server places both as close-position orders
    await setSimPrice(SYMBOL, { price: cents(price * 0.97) });
    await expect
      .poll(
        async () =>
          (await waitingOnExchange())
            .map((o) => `${o.side} ${o.orderType} ${Number(o.triggerPrice).toFixed(2)} ${o.closePosition}`)
            .sort(),
        { timeout: 20_000 },
      )
      .toEqual([`SELL STOP_MARKET ${stopLoss} true`, `SELL TAKE_PROFIT_MARKET ${takeProfit} true`]);
    await expect(attached).toBeHidden({ timeout: 15_000 });
    await expect(
      page.getByRole('table', { name: 'Positions' }).getByRole('row').filter({ hasText: SYMBOL }),
    ).toHaveCount(1);

    // A trailing stop from the same ticket: reduce-only, 2 % behind the best price, on the exchange as Binance's own
    await form.getByRole('radio', { name: 'Sell / short' }).check({ force: true });
    await form.getByLabel('Type').selectOption('TRAILING_STOP_MARKET');
    await form.getByLabel(/^Quantity/).fill('3');
    await form.getByLabel('Callback rate (%)').fill('2');
    await form.getByLabel(/^Reduce-only/).check();
    await form.getByRole('button', { name: 'Review order' }).click();
    await expect(dialog).toContainText(
      `Sell 3 ${SYMBOL} at market once the price comes back 2 % from its best (trailing stop), reduce-only`,
    );
    await dialog.getByRole('button', { name: 'Place order' }).click();
    await expect(dialog).toBeHidden();
    await expect
      .poll(
        async () =>
          (
            await simSignedGet<Array<{ orderType: string; side: string; reduceOnly: boolean }>>(
              keys,
              '/fapi/v1/openAlgoOrders',
              { symbol: SYMBOL },
            )
          )
            .filter((o) => o.orderType === 'TRAILING_STOP_MARKET')
            .map((o) => `${o.side} reduce-only ${o.reduceOnly}`),
        { timeout: 20_000 },
      )
      .toEqual(['SELL reduce-only true']);
    // The account's open orders show it with its rate (Binance's list leaves it out: the server's record has it)
    await expect(
      page.getByRole('table', { name: 'Open orders' }).getByRole('row').filter({ hasText: 'trailing' }),
    ).toContainText('2 % trail');
  });
});
