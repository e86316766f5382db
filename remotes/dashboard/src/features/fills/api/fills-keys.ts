/** Query keys of the recent fills, under the account's `['futures', …]` prefix (account notices invalidate it) */
export const fillsKeys = {
  recent: (limit: number) => ['futures', 'trades', 'recent', limit] as const,
};
