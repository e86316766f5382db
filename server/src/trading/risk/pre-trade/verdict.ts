/**
 * The pre-trade pipeline's vocabulary: every order, whoever asks for it, is judged by the checks that apply to its
 * origin, each answering a verdict in the same words. The checks live beside this file (account limits, a bot's
 * own limits, an agent's rules); the order manager records the verdicts on the intent
 */

/** Who an order comes from: the checks that apply are chosen by it */
export type OrderOrigin = 'manual' | 'bot' | 'agent' | 'kill_switch';

/** The checks of the pipeline */
export type PreTradeCheckName = 'account_limits' | 'bot_limits' | 'agent_rules';

export type Verdict =
  | { check: PreTradeCheckName; ok: true }
  | {
      check: PreTradeCheckName;
      ok: false;
      /** The refusal's code (`RISK_LIMIT`, the bot limit's or agent rule's name) */
      code: string;
      /** In words, as the user reads it (HTTP answer, bot log line) */
      reason: string;
      data: Record<string, unknown>;
    };

export type Refusal = Extract<Verdict, { ok: false }>;

/**
 * One check: which origins it judges, and its verdict on an input. Origins it does not list never reach it: the
 * kill switch's closes are listed by none, so nothing stops them
 */
export interface PreTradeCheck<In, Out extends Verdict | Promise<Verdict> = Verdict> {
  readonly name: PreTradeCheckName;
  readonly appliesTo: readonly OrderOrigin[];
  run(input: In): Out;
}

/** What an intent keeps of the pipeline: its origin and each verdict, in the order the checks ran */
export interface PreTradeRecord {
  origin: OrderOrigin;
  verdicts: Verdict[];
}

export const passed = (check: PreTradeCheckName): Verdict => ({ check, ok: true });

export function refused(
  check: PreTradeCheckName,
  code: string,
  reason: string,
  data: Record<string, unknown> = {},
): Refusal {
  return { check, ok: false, code, reason, data };
}

export const firstRefusal = (verdicts: readonly Verdict[]): Refusal | undefined =>
  verdicts.find((v): v is Refusal => !v.ok);

/**
 * Runs the synchronous checks that apply to `origin` in order, up to the first refusal (a refused order is not
 * judged further): the verdicts
 */
export function runChecks<In>(
  checks: readonly PreTradeCheck<In>[],
  origin: OrderOrigin,
  input: In,
): Verdict[] {
  const verdicts: Verdict[] = [];
  for (const check of checks) {
    if (!check.appliesTo.includes(origin)) continue;
    const verdict = check.run(input);
    verdicts.push(verdict);
    if (!verdict.ok) break;
  }
  return verdicts;
}

/** `runChecks` for checks that read the exchange (account limits) */
export async function runAsyncChecks<In>(
  checks: readonly PreTradeCheck<In, Promise<Verdict>>[],
  origin: OrderOrigin,
  input: In,
): Promise<Verdict[]> {
  const verdicts: Verdict[] = [];
  for (const check of checks) {
    if (!check.appliesTo.includes(origin)) continue;
    const verdict = await check.run(input);
    verdicts.push(verdict);
    if (!verdict.ok) break;
  }
  return verdicts;
}
