/**
 * Which state-changing call needs the password given in the last 5 minutes (step-up, `step-up.ts`): every one that
 * lets risk grow, none that takes it away. `always`: the call as such; `when`: the route's preHandler decides from
 * the request (the condition is said); `never`: why not. The table covers every non-GET operation of the OpenAPI
 * document (`test/step-up-policy.test.ts` walks it), so a new call cannot be added without a decision here. The
 * checks themselves are the routes' preHandlers; this is where they are decided and read
 */
export type StepUpRule =
  | { needs: 'always'; why: string }
  | { needs: 'when'; condition: string }
  | { needs: 'never'; why: string };

const never = (why: string): StepUpRule => ({ needs: 'never', why });
const when = (condition: string): StepUpRule => ({ needs: 'when', condition });
const always = (why: string): StepUpRule => ({ needs: 'always', why });

const SIGNED_OUT = never('no session yet: the password (or the refresh token) is the proof');
const ASKS_PASSWORD = never('asks the password in its own body');
const LESS_RISK = never('takes risk away');
const NO_MONEY = never('moves no money and grows no exposure');

export const STEP_UP_POLICY: Readonly<Record<string, StepUpRule>> = {
  'POST /api/v1/auth/signup': SIGNED_OUT,
  'POST /api/v1/auth/signin': SIGNED_OUT,
  'POST /api/v1/auth/refresh': SIGNED_OUT,
  'POST /api/v1/auth/logout': LESS_RISK,
  'DELETE /api/v1/auth/sessions/{id}': LESS_RISK,
  'PATCH /api/v1/account/profile': NO_MONEY,
  'POST /api/v1/account/password': ASKS_PASSWORD,
  'DELETE /api/v1/account/sessions': LESS_RISK,
  'POST /api/v1/account/step-up': ASKS_PASSWORD,
  'POST /api/v1/account/delete': ASKS_PASSWORD,
  'PUT /api/v1/account/settings': NO_MONEY,
  'PUT /api/v1/environment/': when('switching to mainnet (real money); back to testnet never'),
  'POST /api/v1/credentials/binance': always('stores keys that can trade'),
  'DELETE /api/v1/credentials/binance': LESS_RISK,
  'POST /api/v1/credentials/test-connection': never('stores nothing: checks the stored keys'),
  'POST /api/v1/credentials/validate/binance': never('stores nothing: checks the keys typed'),
  'POST /api/v1/credentials/{exchange}': always('stores keys that can trade'),
  'DELETE /api/v1/credentials/{exchange}': LESS_RISK,
  'POST /api/v1/credentials/validate/{exchange}': never('stores nothing: checks the keys typed'),
  'POST /api/v1/notifications/read': NO_MONEY,
  'POST /api/v1/notifications/{id}/read': NO_MONEY,
  'POST /api/v1/notifications/webhooks': always('sends the account’s events to a new address'),
  'DELETE /api/v1/notifications/webhooks/{id}': LESS_RISK,
  'POST /api/v1/notifications/webhooks/{id}/test': never('sends a test event to an address already chosen'),
  'POST /api/v1/notifications/telegram/link-code': always(
    'a linked chat can stop bots and run the kill switch',
  ),
  'PUT /api/v1/notifications/telegram/events': never('chooses which events reach a chat already linked'),
  'DELETE /api/v1/notifications/telegram/': LESS_RISK,
  'PUT /api/v1/risk/limits': when('any limit is raised or removed; tightening never'),
  'POST /api/v1/risk/kill-switch': never('the way out: it never waits for a password'),
  'POST /api/futures/orders/create': never('each order is checked by the pre-trade pipeline instead'),
  'POST /api/futures/orders/preview': NO_MONEY,
  'POST /api/futures/orders/{id}/cancel': LESS_RISK,
  'POST /api/futures/leverage/set': when('the leverage is raised above the symbol’s current one'),
  'POST /api/futures/margin-type': never(
    'changes no exposure (Binance allows it only without a position or order)',
  ),
  'POST /api/futures/positions/margin': when(
    'margin is taken out of a position (its liquidation comes closer)',
  ),
  'POST /api/v1/orders/reconcile': NO_MONEY,
  'POST /api/v1/backtests/': NO_MONEY,
  'DELETE /api/v1/backtests/{id}': NO_MONEY,
  'POST /api/v1/backtests/{id}/cancel': NO_MONEY,
  'POST /api/v1/optimisations/': NO_MONEY,
  'DELETE /api/v1/optimisations/{id}': NO_MONEY,
  'POST /api/v1/optimisations/{id}/cancel': NO_MONEY,
  'POST /api/v1/agents/': never('a new bot is stopped: starting a live one needs the password'),
  'POST /api/v1/agents/plan': NO_MONEY,
  'PATCH /api/v1/agents/{id}': when('the bot is live or becomes live, unless only its name changes'),
  'DELETE /api/v1/agents/{id}': never('only a stopped bot is deleted'),
  'POST /api/v1/agents/{id}/clone': when('the bot cloned is live'),
  'POST /api/v1/agents/{id}/start': when('the bot is live'),
  'POST /api/v1/agents/{id}/pause': LESS_RISK,
  'POST /api/v1/agents/{id}/stop': LESS_RISK,
  'PUT /api/v1/agents/{id}/llm': NO_MONEY,
  'DELETE /api/v1/agents/{id}/llm': NO_MONEY,
  'POST /api/v1/agents/{id}/train': NO_MONEY,
  'POST /api/v1/agents/{id}/kill': LESS_RISK,
  'POST /api/v1/agents/{id}/latch/reset': never(
    'the agent stays stopped, on paper: going live is a promotion',
  ),
  'POST /api/v1/agents/{id}/stage': when('the agent is promoted to a live stage (live_approval, live_auto)'),
  'POST /api/v1/agents/{id}/approvals/{approvalId}/approve': never(
    'one proposed order, checked by the pre-trade pipeline as any',
  ),
  'POST /api/v1/agents/{id}/approvals/{approvalId}/reject': LESS_RISK,
  'POST /api/v1/agents/{id}/signal-hook': when('the bot is live (its signals trade it)'),
  'DELETE /api/v1/agents/{id}/signal-hook': LESS_RISK,
  'POST /api/v1/signals/{hookId}': never('no session: the hook’s secret is the authority'),
};
