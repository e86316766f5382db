/** The remote's addresses, built in one place (the shell owns the routes; these must match its table) */
export const paths = {
  botHub: { getHref: () => '/bot-hub' },
  activeBots: { getHref: (botId?: string) => (botId ? `/active-bots#bot-${botId}` : '/active-bots') },
  createBot: {
    getHref: (options: { strategy?: string; edit?: string; clone?: string } = {}) => {
      const search = new URLSearchParams();
      if (options.strategy) search.set('strategy', options.strategy);
      if (options.edit) search.set('edit', options.edit);
      if (options.clone) search.set('clone', options.clone);
      const query = search.toString();
      return query ? `/create-bot?${query}` : '/create-bot';
    },
  },
  backtesting: { getHref: () => '/backtesting' },
  portfolio: { getHref: () => '/portfolio' },
} as const;
