import type { CreateOrderRequest } from '@kestrel/contracts';
import type { ExchangeKeys } from '../../../core/exchange/exchange-adapter';
import {
  firstRefusal,
  type OrderOrigin,
  type PreTradeCheck,
  type PreTradeRecord,
  runAsyncChecks,
  type Verdict,
} from './verdict';

/** An order as the pipeline judges it at the order manager: who asks, with which keys, for what */
export interface AccountOrderInput {
  origin: OrderOrigin;
  userId: string;
  keys: ExchangeKeys;
  order: CreateOrderRequest;
  /**
   * Verdicts of the checks the caller ran already, on figures only it has (a bot's limits, at the strategy's
   * submit; an agent's rules, before its proposal): recorded with the rest
   */
  checked?: readonly Verdict[];
}

/**
 * The one pre-trade entry of the order manager: the checks that apply to the order's origin, in order, up to the
 * first refusal, after the verdicts the caller brings (a refusal among those stops it too). The kill switch's
 * closes are judged by no check. Throws only when a check cannot read its figures (the exchange's error)
 */
export class PreTradePipeline {
  constructor(private readonly checks: readonly PreTradeCheck<AccountOrderInput, Promise<Verdict>>[]) {}

  async judge(input: AccountOrderInput): Promise<PreTradeRecord> {
    const verdicts: Verdict[] = [...(input.checked ?? [])];
    if (!firstRefusal(verdicts)) verdicts.push(...(await runAsyncChecks(this.checks, input.origin, input)));
    return { origin: input.origin, verdicts };
  }
}
