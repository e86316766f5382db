/**
 * Query keys of the bots API, broad to narrow: invalidating `all` refreshes every bot query. The summary is a
 * `/api/v1/dashboard/*` figure, so it sits under the runtime's `['dashboard', …]` prefix and follows account
 * notices and the socket's pauses like the cockpit's figures
 */
export const botKeys = {
  all: ['bots'] as const,
  list: () => [...botKeys.all, 'list'] as const,
  status: (id: string) => [...botKeys.all, 'status', id] as const,
  events: (id: string) => [...botKeys.all, 'events', id] as const,
  drift: (id: string) => [...botKeys.all, 'drift', id] as const,
  performance: (id: string) => [...botKeys.all, 'performance', id] as const,
  /** Its signal webhook (the URL's path; the secret is never read back) */
  signalHook: (id: string) => [...botKeys.all, 'signal-hook', id] as const,
  /** The last signals its webhook received */
  signals: (id: string) => [...botKeys.all, 'signals', id] as const,
  /** A plan is drawn for its settings: the key holds them */
  plan: (ask: object) => [...botKeys.all, 'plan', ask] as const,
  /** Starting values from the market for a strategy on a market: the key holds the ask */
  suggestion: (ask: object) => [...botKeys.all, 'suggestion', ask] as const,
  summary: () => ['dashboard', 'bots'] as const,
};

/** The path of one bot (ids are UUIDs; encoded anyway so a bad link cannot reach another route) */
export const botPath = (id: string, rest = '') => `/api/v1/agents/${encodeURIComponent(id)}${rest}`;
