import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { signUp } from '../support/auth';
import { connectBinance } from '../support/exchange';
import { E2E_SIM_PORT } from '../support/ports';
import {
  addSimFault,
  createSimAccount,
  releaseSimPrice,
  removeSimFault,
  setSimPrice,
  simSignedGet,
} from '../support/sim';

/** BTCUSDT's last price on the e2e simulator (its public REST, as Binance answers it) */
async function simPrice(): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${E2E_SIM_PORT}/fapi/v1/ticker/price?symbol=BTCUSDT`);
  return Number(((await res.json()) as { price: string }).price);
}

async function next(page: Page, step: string) {
  const form = page.getByRole('form', { name: 'Create bot' });
  await form.getByRole('button', { name: /^Next: / }).click();
  await expect(form.getByRole('heading', { level: 2, name: step })).toBeFocused();
}

/**
 * The create-bot wizard from its Name field to its Mode step, for a BTCUSDT grid on 1m bars at 2× leverage whose
 * range spans ±3 % around the price, so the grid has orders on both sides from its first bar
 */
async function fillGridBot(
  page: Page,
  grid: { name: string; gridCount: string; quantityPerGrid: string; budget: string },
) {
  const form = page.getByRole('form', { name: 'Create bot' });
  await form.getByLabel('Name').fill(grid.name);
  await next(page, 'Market');
  await form.getByLabel('Interval').selectOption('1m');
  await form.getByLabel('Leverage').fill('2');
  await next(page, 'Parameters');
  const price = await simPrice();
  await form.getByLabel(/^Lower/).fill(String(Math.floor(price * 0.97)));
  await form.getByLabel(/^Upper/).fill(String(Math.ceil(price * 1.03)));
  await form.getByLabel(/^Grid count/).fill(grid.gridCount);
  await form.getByLabel(/^Quantity per grid/).fill(grid.quantityPerGrid);
  await next(page, 'Budget and risk');
  await form.getByLabel(/^Budget/).fill(grid.budget);
  await next(page, 'Mode');
}

test.describe('bots (bots remote)', () => {
  test('a grid bot made on /create-bot runs on paper on /active-bots, its log streams, and it says why it stopped', async ({
    page,
  }) => {
    test.setTimeout(150_000);
    await signUp(page);
    await page.goto('/bot-hub');
    await expect(page.getByRole('heading', { name: 'Bot hub', level: 1 })).toBeVisible();
    // The AI agent is a template too; its page (not a 7-day backtest) shows its evidence
    const agent = page.getByRole('region', { name: 'AI agent' });
    await expect(agent.getByRole('link', { name: 'Use the AI agent template' })).toBeVisible();
    await page.getByRole('link', { name: 'Use the Grid template' }).click();
    await expect(page).toHaveURL(/\/create-bot\?strategy=grid$/);

    const form = page.getByRole('form', { name: 'Create bot' });
    await expect(form.getByRole('radio', { name: /Futures grid/ })).toBeChecked();
    await fillGridBot(page, { name: 'E2E grid', gridCount: '12', quantityPerGrid: '0.002', budget: '500' });
    await expect(form.getByRole('radio', { name: /^Paper/ })).toBeChecked();
    await next(page, 'Review');
    await expect(form.getByText('BTCUSDT · 1m bars · 2× leverage')).toBeVisible();
    await form.getByRole('button', { name: 'Create bot' }).click();

    await expect(page).toHaveURL(/\/active-bots#bot-[0-9a-f-]{36}$/);
    const bot = page.getByRole('region', { name: /^E2E grid/ });
    await expect(bot).toHaveAttribute('data-bot-state', 'stopped');
    await bot.getByRole('button', { name: 'Start' }).click();
    const start = page.getByRole('dialog', { name: 'Start E2E grid?' });
    await expect(start).toContainText('on paper (no real orders) with a budget of 500 USDT');
    await start.getByRole('button', { name: 'Start bot' }).click();
    await expect(bot).toHaveAttribute('data-bot-state', 'running', { timeout: 20_000 });
    await expect(bot.getByText('Running', { exact: true })).toBeVisible();

    // The log, open: lines arrive over the socket as the bot trades its next closed 1m bar (no reload, no poll)
    await bot.getByRole('button', { name: 'Show log' }).click();
    const log = bot.getByRole('list', { name: 'Log of E2E grid' });
    await expect(log.locator('[data-kind="started"]')).toHaveCount(1);
    await expect(log.locator('[data-kind="order_sent"], [data-kind="order_filled"]').first()).toBeVisible({
      timeout: 90_000,
    });

    // No serious accessibility violation with the bot running
    const axe = await new AxeBuilder({ page }).include('section[data-remote="bots"]').analyze();
    expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);

    await bot.getByRole('button', { name: 'Stop' }).click();
    const stop = page.getByRole('dialog', { name: 'Stop E2E grid?' });
    await stop.getByRole('button', { name: 'Stop bot' }).click();
    await expect(bot).toHaveAttribute('data-bot-state', 'stopped', { timeout: 20_000 });
    await expect(bot.getByText(/^Stopped \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC: Stopped by you$/)).toBeVisible();
    await expect(log.locator('[data-kind="stopped"]')).toHaveCount(1);
  });

  test('a live grid bot needs a connected exchange and an explicit confirmation, places real orders, and cancels them when stopped', async ({
    page,
  }) => {
    test.setTimeout(150_000);
    await signUp(page, { keepConnectModal: true });
    await connectBinance(page, await createSimAccount({ balances: { USDT: '5000' } }));
    await page.goto('/create-bot?strategy=grid');
    const form = page.getByRole('form', { name: 'Create bot' });
    await fillGridBot(page, {
      name: 'E2E live grid',
      gridCount: '6',
      quantityPerGrid: '0.002',
      budget: '1000',
    });
    await form.getByRole('radio', { name: /^Live/ }).check();
    // On the simulator the orders are real to the exchange, the money is not: the warning says so
    await expect(form.getByRole('alert')).toContainText(
      'This bot will place real orders with your account on the exchange simulator, with demo funds: no real money.',
    );
    await expect(form.getByRole('alert')).not.toContainText('This bot will trade real money');
    await form.getByRole('button', { name: 'Next: Review' }).click();
    await expect(
      form.getByText('Confirm that this bot places real orders with your Binance account'),
    ).toBeVisible();
    await form.getByRole('checkbox', { name: /I understand this bot places real orders/ }).check();
    await next(page, 'Review');
    await expect(form.getByText('Live: real orders')).toBeVisible();
    await form.getByRole('button', { name: 'Create bot' }).click();

    await expect(page).toHaveURL(/\/active-bots#bot-[0-9a-f-]{36}$/);
    const bot = page.getByRole('region', { name: /^E2E live grid/ });
    await bot.getByRole('button', { name: 'Start' }).click();
    const start = page.getByRole('dialog', { name: 'Start E2E live grid?' });
    await expect(start).toContainText(
      'It will place real orders on BTCUSDT with your account on the exchange simulator (demo funds: no real money), up to its budget of 1000 USDT, until you stop it.',
    );
    await start.getByRole('button', { name: 'Start bot' }).click();
    await expect(bot).toHaveAttribute('data-bot-state', 'running', { timeout: 20_000 });

    // Its grid stands on the exchange within seconds of Start (the order manager's kb- orders), not at the next
    // 1m close, listed on its card as the server reads them
    const orders = bot.getByRole('table', { name: 'Open orders of E2E live grid' });
    const rows = (side: 'Buy' | 'Sell') =>
      orders.getByRole('row').filter({ hasText: new RegExp(`^${side}`) });
    await expect(rows('Buy').first()).toBeVisible({ timeout: 15_000 });
    await expect(bot.locator('[data-figure="orders"] dd').first()).toHaveText('6');
    const buys = await rows('Buy').count();
    const sells = await rows('Sell').count();
    expect(buys + sells).toBe(6);

    // The price dips just under its highest buy: that buy fills, and its counter-sell one level up stands on the
    // exchange within seconds (a fill is answered as the account stream reports it, not at the bar's close)
    const buyPrices = (await rows('Buy').locator('td:nth-child(3)').allTextContents()).map((p) =>
      Number(p.replaceAll(',', '')),
    );
    const highestBuy = Math.max(...buyPrices);
    const step = highestBuy - Math.max(...buyPrices.filter((p) => p < highestBuy));
    try {
      await setSimPrice('BTCUSDT', { price: (highestBuy - step / 2).toFixed(1) });
      await expect(rows('Buy')).toHaveCount(buys - 1, { timeout: 15_000 });
      await expect(rows('Sell')).toHaveCount(sells + 1, { timeout: 15_000 });
      await expect(bot.locator('[data-figure="orders"] dd').first()).toHaveText('6');

      // Long one level's quantity from the filled buy, under water at the held price; the price rises a quarter
      // step above the buy: the card's unrealized PnL follows the pushed mark within seconds, no reload, no close
      const unrealized = bot.locator('[data-figure="unrealized"] dd').first();
      await expect(unrealized).toHaveText(/^-/, { timeout: 15_000 });
      await setSimPrice('BTCUSDT', { price: (highestBuy + step / 4).toFixed(1) });
      await expect(unrealized).toHaveText(/^\+/, { timeout: 5_000 });
    } finally {
      await releaseSimPrice('BTCUSDT');
    }

    await bot.getByRole('button', { name: 'Stop' }).click();
    const stop = page.getByRole('dialog', { name: 'Stop E2E live grid?' });
    await expect(stop).toContainText(
      'Its open orders on BTCUSDT will be canceled and it will place no new ones.',
    );
    await stop.getByRole('button', { name: 'Stop bot' }).click();
    await expect(bot).toHaveAttribute('data-bot-state', 'stopped', { timeout: 20_000 });
    await expect(bot.getByText(/UTC: Stopped by you$/)).toBeVisible();
    await expect(bot.locator('[data-figure="orders"] dd').first()).toHaveText('0');

    // Started again, the account holds the long its fill left (one position per symbol in one-way mode): the
    // server refuses, the dialog says what is there and asks to share the symbol; confirmed, the bot runs
    await bot.getByRole('button', { name: 'Start' }).click();
    await page
      .getByRole('dialog', { name: 'Start E2E live grid?' })
      .getByRole('button', { name: 'Start bot' })
      .click();
    const share = page.getByRole('dialog', { name: 'Start E2E live grid sharing BTCUSDT?' });
    await expect(share.getByRole('alert')).toContainText(
      /^BTCUSDT already has a long position of 0\.002 on this account\./,
    );
    await share.getByRole('button', { name: 'Start sharing BTCUSDT' }).click();
    await expect(bot).toHaveAttribute('data-bot-state', 'running', { timeout: 20_000 });
    await bot.getByRole('button', { name: 'Stop' }).click();
    await page
      .getByRole('dialog', { name: 'Stop E2E live grid?' })
      .getByRole('button', { name: 'Stop bot' })
      .click();
    await expect(bot).toHaveAttribute('data-bot-state', 'stopped', { timeout: 20_000 });
  });

  test('a live grid paused keeps its orders on the exchange; resumed, and changed while it runs, it lays them anew', async ({
    page,
  }) => {
    test.setTimeout(150_000);
    await signUp(page, { keepConnectModal: true });
    const keys = await createSimAccount({ balances: { USDT: '5000' } });
    await connectBinance(page, keys);
    await page.goto('/create-bot?strategy=grid');
    const form = page.getByRole('form', { name: 'Create bot' });
    await fillGridBot(page, {
      name: 'E2E paused grid',
      gridCount: '6',
      quantityPerGrid: '0.003',
      budget: '1000',
    });
    await form.getByRole('radio', { name: /^Live/ }).check();
    await form.getByRole('button', { name: 'Next: Review' }).click();
    await form.getByRole('checkbox', { name: /I understand this bot places real orders/ }).check();
    await next(page, 'Review');
    await form.getByRole('button', { name: 'Create bot' }).click();
    await expect(page).toHaveURL(/\/active-bots#bot-[0-9a-f-]{36}$/);
    const bot = page.getByRole('region', { name: /^E2E paused grid/ });
    await bot.getByRole('button', { name: 'Start', exact: true }).click();
    await page
      .getByRole('dialog', { name: 'Start E2E paused grid?' })
      .getByRole('button', { name: 'Start bot' })
      .click();
    await expect(bot).toHaveAttribute('data-bot-state', 'running', { timeout: 20_000 });
    const openIds = async () =>
      (
        await simSignedGet<{ clientOrderId: string }[]>(keys, '/fapi/v1/openOrders', { symbol: 'BTCUSDT' })
      ).map((o) => o.clientOrderId);
    await expect.poll(async () => (await openIds()).length, { timeout: 15_000 }).toBeGreaterThan(0);

    // Paused: said first; its orders stay on the exchange, the card says it places nothing new
    await bot.getByRole('button', { name: 'Pause', exact: true }).click();
    const pause = page.getByRole('dialog', { name: 'Pause E2E paused grid?' });
    await expect(pause).toContainText('stay on the exchange, where they may fill');
    await pause.getByRole('button', { name: 'Pause bot' }).click();
    await expect(bot).toHaveAttribute('data-bot-state', 'paused', { timeout: 20_000 });
    await expect(
      bot.getByText(/^Paused .* UTC\. The orders it left on BTCUSDT stay on the exchange/),
    ).toBeVisible();
    const kept = await openIds();
    expect(kept.length).toBeGreaterThan(0);
    await expect(bot.getByRole('button', { name: /^Delete/ })).toHaveCount(0);

    // Resumed: what it left is canceled and a fresh grid stands, under new order ids
    await bot.getByRole('button', { name: 'Resume', exact: true }).click();
    const resume = page.getByRole('dialog', { name: 'Resume E2E paused grid?' });
    await expect(resume).toContainText('are canceled, then it lays its orders anew from the price now');
    await resume.getByRole('button', { name: 'Resume bot' }).click();
    await expect(bot).toHaveAttribute('data-bot-state', 'running', { timeout: 20_000 });
    await expect
      .poll(
        async () => {
          const now = await openIds();
          return now.length > 0 && now.every((id) => !kept.includes(id));
        },
        { timeout: 20_000 },
      )
      .toBe(true);
    const resumed = await openIds();

    // Changed while it runs: the form says saving restarts it, and the new grid count stands on the exchange
    await bot.getByRole('link', { name: 'Edit E2E paused grid' }).click();
    const edit = page.getByRole('form', { name: 'Edit bot' });
    const step = async (title: string) => {
      await edit.getByRole('button', { name: /^Next: / }).click();
      await expect(edit.getByRole('heading', { level: 2, name: title })).toBeFocused();
    };
    await step('Market');
    await step('Parameters');
    await edit.getByLabel(/^Grid count/).fill('4');
    await step('Budget and risk');
    await step('Mode');
    await edit.getByRole('checkbox', { name: /I understand this bot places real orders/ }).check();
    await step('Review');
    await expect(edit.getByRole('note', { name: 'What saving does' })).toContainText(
      'E2E paused grid is running. A new name applies at once; new parameters, leverage, budget or risk limits restart it',
    );
    await edit.getByRole('button', { name: 'Save changes' }).click();
    // Exact: the toast's live region repeats its title and text in one announcement
    await expect(
      page.getByText('It started again with the new settings, from the price now.', { exact: true }),
    ).toBeVisible({
      timeout: 20_000,
    });
    await expect(page).toHaveURL(/\/active-bots#bot-[0-9a-f-]{36}$/);
    await expect(bot).toHaveAttribute('data-bot-state', 'running', { timeout: 20_000 });
    await expect
      .poll(
        async () => {
          const now = await openIds();
          return now.length > 0 && now.length <= 4 && now.every((id) => !resumed.includes(id));
        },
        { timeout: 20_000 },
      )
      .toBe(true);

    await bot.getByRole('button', { name: 'Stop', exact: true }).click();
    await page
      .getByRole('dialog', { name: 'Stop E2E paused grid?' })
      .getByRole('button', { name: 'Stop bot' })
      .click();
    await expect(bot).toHaveAttribute('data-bot-state', 'stopped', { timeout: 20_000 });
    await expect.poll(openIds, { timeout: 15_000 }).toEqual([]);
  });
  test('a live DCA bot’s take-profit and stop stand on the exchange right after its entry fills', async ({
    page,
  }) => {
    test.setTimeout(150_000);
    await signUp(page, { keepConnectModal: true });
    const keys = await createSimAccount({ balances: { USDT: '5000' } });
    await connectBinance(page, keys);
    await page.goto('/create-bot?strategy=dca');
    const form = page.getByRole('form', { name: 'Create bot' });
    await form.getByLabel('Name').fill('E2E live DCA');
    await next(page, 'Market');
    // A 1h bot: no bar closes during the test, so whatever stands on the exchange was placed on the entry's fill
    await form.getByLabel('Interval').selectOption('1h');
    await form.getByLabel('Leverage').fill('2');
    await next(page, 'Parameters');
    await form.getByLabel(/^Safety order count/).fill('2');
    await form.getByLabel(/^Stop loss/).fill('5');
    await next(page, 'Budget and risk');
    await form.getByLabel(/^Budget/).fill('1000');
    await next(page, 'Mode');
    await form.getByRole('radio', { name: /^Live/ }).check();
    await form.getByRole('button', { name: 'Next: Review' }).click();
    await form.getByRole('checkbox', { name: /I understand this bot places real orders/ }).check();
    await next(page, 'Review');
    await form.getByRole('button', { name: 'Create bot' }).click();

    await expect(page).toHaveURL(/\/active-bots#bot-[0-9a-f-]{36}$/);
    const bot = page.getByRole('region', { name: /^E2E live DCA/ });
    await bot.getByRole('button', { name: 'Start' }).click();
    await page
      .getByRole('dialog', { name: 'Start E2E live DCA?' })
      .getByRole('button', { name: 'Start bot' })
      .click();
    await expect(bot).toHaveAttribute('data-bot-state', 'running', { timeout: 20_000 });

    // The base order fills at once; its take-profit (a reduce-only sell), its stop and two safety buys are on its
    // card within seconds, and the exchange holds them, the 5 % stop as a conditional order
    await expect(bot.locator('[data-figure="position"] dd').first()).toHaveText(/^Long /, {
      timeout: 15_000,
    });
    const orders = bot.getByRole('table', { name: 'Open orders of E2E live DCA' });
    const sells = orders.getByRole('row').filter({ hasText: /^Sell/ });
    await expect(sells).toHaveCount(2, { timeout: 15_000 });
    await expect(sells.filter({ hasText: 'Limit' })).toHaveCount(1);
    // The stop stands at its trigger, below the mark, for the whole position
    const stopRow = sells.filter({ hasText: 'Stop market' });
    await expect(stopRow).toHaveCount(1);
    await expect(stopRow.getByRole('cell').nth(2)).toHaveText(/^trigger \d[\d,]*\.\d+$/);
    await expect(stopRow.getByRole('cell').nth(3)).toHaveText('All');
    await expect(orders.getByRole('row').filter({ hasText: /^Buy/ })).toHaveCount(2);
    const open = await simSignedGet<{ side: string; type: string; reduceOnly: boolean }[]>(
      keys,
      '/fapi/v1/openOrders',
      { symbol: 'BTCUSDT' },
    );
    expect(open.filter((o) => o.side === 'SELL')).toEqual([
      expect.objectContaining({ type: 'LIMIT', reduceOnly: true }),
    ]);
    expect(open.filter((o) => o.side === 'BUY').map((o) => o.type)).toEqual(['LIMIT', 'LIMIT']);
    const algos = await simSignedGet<{ orderType: string; side: string; closePosition: boolean }[]>(
      keys,
      '/fapi/v1/openAlgoOrders',
      { symbol: 'BTCUSDT' },
    );
    expect(algos).toEqual([
      expect.objectContaining({ orderType: 'STOP_MARKET', side: 'SELL', closePosition: true }),
    ]);

    // Its own story: the candles with its entry and its four open orders, and its PnL curve from that fill
    await bot.getByRole('button', { name: 'Show chart of E2E live DCA' }).click();
    const fills = bot.getByRole('figure', { name: /^BTCUSDT · 1h with the fills of E2E live DCA$/ });
    await expect(fills).toHaveAccessibleDescription(
      /^\d+ candles; 1 fill \(arrows up: buys, down: sells\); 4 open orders as dashed lines$/,
    );
    await expect(fills.locator('canvas').first()).toBeVisible();
    const pnl = bot.getByRole('figure', { name: 'PnL of E2E live DCA' });
    // Just after the entry its PnL is its fee and the few ticks the mark has moved since
    await expect(pnl).toHaveAccessibleDescription(
      /^\d+ points, now -?\d+\.\d{2} USDT \(realized -\d+\.\d{2}, unrealized -?\d+\.\d{2}\); funding not included$/,
    );
    // With the charts open, still no serious accessibility violation
    const axe = await new AxeBuilder({ page }).include('section[data-remote="bots"]').analyze();
    expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);

    await bot.getByRole('button', { name: 'Stop' }).click();
    await page
      .getByRole('dialog', { name: 'Stop E2E live DCA?' })
      .getByRole('button', { name: 'Stop bot' })
      .click();
    await expect(bot).toHaveAttribute('data-bot-state', 'stopped', { timeout: 20_000 });

    // /history says which bot placed the entry's fill, with a link to its card
    await page.goto('/history');
    const fillsTable = page.getByRole('table', { name: 'Trades' });
    await expect(async () => {
      await page.reload();
      await expect(fillsTable.getByRole('link', { name: 'E2E live DCA' }).first()).toBeVisible({
        timeout: 5_000,
      });
    }).toPass({ timeout: 60_000 });
    await fillsTable.getByRole('link', { name: 'E2E live DCA' }).first().click();
    await expect(page).toHaveURL(/\/active-bots#bot-[0-9a-f-]{36}$/);
  });
  test('the grid and DCA templates, opened and saved without a change, make live bots whose orders the exchange takes', async ({
    page,
  }) => {
    test.setTimeout(150_000);
    await signUp(page, { keepConnectModal: true });
    const keys = await createSimAccount({ balances: { USDT: '5000' } });
    await connectBinance(page, keys);
    for (const [strategy, name] of [
      ['grid', 'Futures grid BTCUSDT'],
      ['dca', 'DCA with safety orders BTCUSDT'],
    ] as const) {
      await page.goto(`/create-bot?strategy=${strategy}`);
      const form = page.getByRole('form', { name: 'Create bot' });
      await next(page, 'Market');
      await next(page, 'Parameters');
      // The template's values come from the market, and the form says so
      await expect(form.getByRole('note', { name: 'Values from the market' })).toContainText(
        /^Set from the market: BTCUSDT at \d/,
      );
      // Under the fields, the orders those values make: none the exchange would refuse, drawn on the last days
      const plan = form.getByRole('region', { name: 'Its orders at the price now' });
      await expect(plan.locator('canvas').first()).toBeVisible({ timeout: 20_000 });
      await expect(plan.getByText('The exchange would refuse these orders:')).toHaveCount(0);
      const axe = await new AxeBuilder({ page }).include('section[data-remote="bots"]').analyze();
      expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
      await next(page, 'Budget and risk');
      await next(page, 'Mode');
      await form.getByRole('radio', { name: /^Live/ }).check();
      await form.getByRole('button', { name: 'Next: Review' }).click();
      await form.getByRole('checkbox', { name: /I understand this bot places real orders/ }).check();
      await next(page, 'Review');
      // Its quick backtest on the last 7 days fills orders: the market's values are not a range the price never
      // visits. A week that only fell (or only rose) can leave its one position open with no trade closed: the page
      // then says so, and that too is orders the price reached
      await form.getByRole('button', { name: 'Run a quick backtest' }).click();
      const trades = form.getByLabel('Backtest preview figures').locator('[data-figure="trades"] dd');
      await expect(trades).toHaveText(/^\d[\d,]*$/, { timeout: 60_000 });
      if (Number((await trades.textContent())?.replaceAll(',', '')) === 0) {
        await expect(form).toContainText(
          /No trade closed: \d+ fills? opened a position still open at the end/,
        );
      }
      await form.getByRole('button', { name: 'Create bot' }).click();
      await expect(page).toHaveURL(/\/active-bots#bot-[0-9a-f-]{36}$/);
      const bot = page.getByRole('region', { name: new RegExp(`^${name}`) });
      const sent = async () =>
        (await simSignedGet<unknown[]>(keys, '/fapi/v1/allOrders', { symbol: 'BTCUSDT' })).length;
      const before = await sent();
      await bot.getByRole('button', { name: 'Start' }).click();
      await page
        .getByRole('dialog', { name: `Start ${name}?` })
        .getByRole('button', { name: 'Start bot' })
        .click();
      await expect(bot).toHaveAttribute('data-bot-state', 'running', { timeout: 20_000 });
      // Its first orders stand on the exchange or filled there: none refused, the bot still running
      await expect.poll(sent, { timeout: 15_000 }).toBeGreaterThan(before);
      await expect(bot.getByText(/refused/i)).toHaveCount(0);
      await expect(bot).toHaveAttribute('data-bot-state', 'running');
      await bot.getByRole('button', { name: 'Stop' }).click();
      await page
        .getByRole('dialog', { name: `Stop ${name}?` })
        .getByRole('button', { name: /^Stop/ })
        .click();
      await expect(bot).toHaveAttribute('data-bot-state', 'stopped', { timeout: 20_000 });
    }
  });
  test('the parameters step, left while the market is being read, reads it again when it opens again', async ({
    page,
  }) => {
    await signUp(page);
    // The next reads of the price now are slow (3 s): the trader moves on before the values come. The price is
    // public (no account to narrow the fault to) and the other worker's bots read it too, so a few are slowed
    const slow = await addSimFault({
      kind: 'latency',
      method: 'GET',
      path: '/fapi/v2/ticker/price',
      phase: 'before',
      ms: 3_000,
      remaining: 3,
    });
    try {
      await page.goto('/create-bot?strategy=grid');
      const form = page.getByRole('form', { name: 'Create bot' });
      await next(page, 'Market');
      await next(page, 'Parameters');
      const note = form.getByRole('note', { name: 'Values from the market' });
      await expect(note).toContainText("Reading BTCUSDT's price");
      await next(page, 'Budget and risk');
      await form.getByRole('button', { name: 'Back' }).click();
      // Back on the step, the values are drawn again: the fields come, never a step stuck reading
      await expect(note).toContainText(/^Set from the market: BTCUSDT at \d/, { timeout: 15_000 });
      await expect(form.getByLabel(/^Lower/)).toBeVisible();
    } finally {
      await removeSimFault(slow);
    }
  });
});
