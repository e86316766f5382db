import { intervalToMs, resolveBrokerConfig } from '@kestrel/engine';
import type { TradingAccount } from '../../core/environment/trading-account';
import type { ExchangeAdapter } from '../../core/exchange/exchange-adapter';
import type { RunBrackets } from '../../core/market-data/leverage-brackets';
import { BotFault, exchangeStep } from './bot-fault';
import type { BotRow, HedgeSide } from './bot-repository';
import { type FeeCounter, LiveAccount, type LiveOrders } from './live-account';
import { PaperAccount } from './paper-account';
import type { StrategyHost } from './strategy-host';

/** The ports a live bot's account trades through */
export interface SessionAccountDeps {
  /** Live bots: the order manager (intents, reconcile, cancels, the dead-man switch, the symbol's leverage) */
  orders: LiveOrders & {
    /** The bot (`botId`) holds the account's dead-man switch on the symbol */
    armDeadman(account: TradingAccount, symbol: string, botId: string): Promise<void>;
    /** The bot lets go of it: disarmed once no live bot of the account on the symbol holds it, here or elsewhere */
    disarmDeadman(account: TradingAccount, symbol: string, botId: string): Promise<void>;
    setLeverage(account: TradingAccount, symbol: string, leverage: number): Promise<unknown>;
  };
  /** Live bots: a fill's commission counted in USDT (BNB priced at the fill's minute) */
  countFee: FeeCounter;
  /**
   * Live bots alone on their symbol: the account's position there as the exchange holds it, undefined while
   * another live bot of the account trades the symbol too
   */
  exchangePosition(
    account: TradingAccount,
    symbol: string,
    botId: string,
    side: HedgeSide | undefined,
  ): Promise<number | undefined>;
}

/** Where the account reads its symbol's rules: the bot's environment (see `BotSessionDeps`) */
export interface SymbolRulesReads {
  exchange: Pick<ExchangeAdapter, 'symbolInfo'>;
  brackets(account: TradingAccount, symbol: string): Promise<RunBrackets>;
}

/** What a session's account is opened with: where it trades, and when the session began */
export interface SessionAccountOpening {
  account: TradingAccount;
  /** Open of the session's first traded bar (`session-bars.ts`) */
  tradeFrom: number;
  startedAt: number;
}

/**
 * The account a session trades on, with the symbol's rules as the exchange has them now (its filters, the account's
 * brackets), by the bot's mode: a paper bot's engine broker, or a live bot's strategy against the exchange, which
 * is first made ready there (reconcile, the bot's leverage, the dead-man switch); a refusal stops the bot before
 * any order
 */
export async function openSessionAccount(
  row: BotRow,
  host: StrategyHost,
  opening: SessionAccountOpening,
  deps: SessionAccountDeps & SymbolRulesReads,
): Promise<PaperAccount | LiveAccount> {
  const { account } = opening;
  const info = await exchangeStep(`read ${row.symbol} from the exchange`, () =>
    deps.exchange.symbolInfo(row.symbol),
  );
  if (!info) throw new BotFault(`${row.symbol} is no longer listed on the exchange`);
  const brackets = await deps.brackets(account, row.symbol);
  const config = resolveBrokerConfig({
    broker: {
      initialBalance: row.budget,
      leverage: row.leverage,
      tickSize: Number(info.tickSize),
      stepSize: Number(info.stepSize),
      minNotional: Number(info.minNotional),
    },
    ...(brackets.brackets ? { brackets: brackets.brackets } : {}),
  });
  const barMs = intervalToMs(row.interval);
  if (row.mode !== 'live') {
    return new PaperAccount(host.type, row.params, barMs, config, {
      limits: row.risk_limits,
      origin: host.origin,
    });
  }
  // Before the bot acts: unresolved orders resolved, placed ones re-read, foreign ones reported (not touched)
  await exchangeStep('reconcile with the exchange', () => deps.orders.reconcile(account, row.symbol));
  // The exchange holds the margin the bot was backtested with, before its first order; a refusal stops it
  await exchangeStep(`set ${row.symbol} leverage to ${row.leverage}× on the exchange`, () =>
    deps.orders.setLeverage(account, row.symbol, row.leverage),
  );
  // Should this server die, the exchange cancels the symbol's orders when the countdown runs out
  await exchangeStep('arm the dead-man switch', () => deps.orders.armDeadman(account, row.symbol, row.id));
  return new LiveAccount(host.type, row.params, barMs, {
    account,
    preTrade: host,
    botId: row.id,
    symbol: row.symbol,
    budget: row.budget,
    leverage: row.leverage,
    tickSize: Number(info.tickSize),
    stepSize: Number(info.stepSize),
    limits: row.risk_limits,
    orders: deps.orders,
    sessionStart: opening.tradeFrom,
    keyPrefix: row.trades_from === null ? '' : `${opening.startedAt}/`,
    countFee: deps.countFee,
    ...(row.shares_symbol
      ? {}
      : {
          exchangePosition: () =>
            deps.exchangePosition(account, row.symbol, row.id, row.position_side ?? undefined),
        }),
    ...(row.position_side ? { positionSide: row.position_side } : {}),
  });
}
