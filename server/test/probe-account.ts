/**
 * A futures account as a stub key check reports it: 100 USDT, trading on, withdrawals off (the tests that save keys
 * with a stub exchange probe do not test the exchange's answers)
 */
export const PROBE_ACCOUNT = {
  accountType: 'USDT_FUTURES',
  totalWalletBalance: '100',
  totalUnrealizedProfit: '0',
  totalMarginBalance: '100',
  canTrade: true,
  canWithdraw: false,
  canDeposit: true,
  assetsCount: 1,
  positionsCount: 0,
} as const;
