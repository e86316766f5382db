/** The remote's addresses, built in one place (the shell owns the routes; these must match its table) */
export const paths = {
  botHub: { getHref: () => '/bot-hub' },
  activeBots: { getHref: (botId?: string) => (botId ? `/active-bots#bot-${botId}` : '/active-bots') },
  createBot: {
    /**
     * `symbol`, `interval` and `params` prefill a new bot (e.g. from an optimisation's combination); `params` travel
     * as one JSON object
     */
    getHref: (
      options: {
        strategy?: string;
        edit?: string;
        clone?: string;
        symbol?: string;
        interval?: string;
        params?: Record<string, unknown>;
      } = {},
    ) => {
      const search = new URLSearchParams();
      if (options.strategy) search.set('strategy', options.strategy);
      if (options.symbol) search.set('symbol', options.symbol);
      if (options.interval) search.set('interval', options.interval);
      if (options.params) search.set('params', JSON.stringify(options.params));
      if (options.edit) search.set('edit', options.edit);
      if (options.clone) search.set('clone', options.clone);
      const query = search.toString();
      return query ? `/create-bot?${query}` : '/create-bot';
    },
  },
  backtesting: { getHref: () => '/backtesting' },
  /** An AI agent's own page (the shell's product-branded segment) */
  agent: { getHref: (agentId: string) => `/kestrel/${encodeURIComponent(agentId)}` },
  portfolio: { getHref: () => '/portfolio' },
} as const;
