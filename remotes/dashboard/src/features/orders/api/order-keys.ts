import type { QueryClient } from '@tanstack/react-query';

/**
 * Query keys of the futures account, broad to narrow. Everything sits under `['futures']`: the live socket's
 * order, position and balance notices invalidate that prefix, and so does every order this page sends (an order
 * changes orders, positions and balances at once). The portfolio feature's reads use the same prefix.
 */
export const orderKeys = {
  all: ['futures'] as const,
  open: () => [...orderKeys.all, 'orders', 'active'] as const,
  /** Orders whose outcome the server is still resolving ("status unknown") */
  unresolved: () => [...orderKeys.all, 'orders', 'unresolved'] as const,
};

/**
 * After an order, a cancel or a leverage change: the account's queries (`['futures', …]`) and the dashboard
 * figures built from them (`['dashboard', …]`) are asked again; a symbol's trading rules (`['futures', 'symbols']`)
 * do not change with an order
 */
export function invalidateAccount(queryClient: QueryClient): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: orderKeys.all, predicate: (q) => q.queryKey[1] !== 'symbols' }),
    queryClient.invalidateQueries({ queryKey: ['dashboard'] }),
  ]).then(() => undefined);
}
