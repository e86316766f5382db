/**
 * Addresses of other remotes' pages this one links to: remotes never import each other, so each address is
 * written once here
 */
export const paths = {
  /** A bot's card on /active-bots (the bots remote gives each card the id `bot-<id>`) */
  activeBot: (id: string) => `/active-bots#bot-${encodeURIComponent(id)}`,
  activeBots: '/active-bots',
};
