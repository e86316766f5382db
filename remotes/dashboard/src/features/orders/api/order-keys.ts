/**
 * Query keys of the futures account, broad to narrow. Everything sits under `['futures']`: the live socket's
 * order, position and balance notices invalidate that prefix, and so does every order this page sends (an order
 * changes orders, positions and balances at once). The portfolio feature's reads use the same prefix.
 */
export const orderKeys = {
  all: ['futures'] as const,
  open: () => [...orderKeys.all, 'orders', 'active'] as const,
};
