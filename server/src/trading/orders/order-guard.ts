import type { AccountOrderInput } from '../risk/pre-trade/pipeline';
import type { PreTradeRecord } from '../risk/pre-trade/verdict';

/**
 * The pre-trade pipeline as the order manager calls it, once per order before it is sent: the verdicts of the
 * checks that apply to the order's origin (`PreTradePipeline`, `trading/risk/pre-trade/`). A refusal among them
 * settles the intent `rejected` (422 with the refusal's code and words); a throw (figures unreadable) `not_placed`
 */
export interface OrderGuard {
  judge(input: AccountOrderInput): Promise<PreTradeRecord>;
}

/**
 * Leverage changes against the max-leverage limit, in the order manager's `setLeverage` (every change: a bot's at
 * its start, the trader's by hand through `FuturesService`); throws 422 `RISK_LIMIT` to refuse, recorded on /risk
 */
export interface LeverageGuard {
  checkLeverage(userId: string, symbol: string, leverage: number): Promise<void>;
}
