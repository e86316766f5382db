/** A starting point on the hub: a built-in strategy explained in plain words, or the AI agent still to come */
export interface BotTemplate {
  /** The engine's strategy id; null for a template that cannot run yet */
  strategy: string | null;
  title: string;
  summary: string;
  /** How it makes money */
  earns: string;
  /** How it loses money */
  loses: string;
  /** Not available yet, said plainly */
  coming?: string;
}

export const BOT_TEMPLATES: readonly BotTemplate[] = [
  {
    strategy: 'grid',
    title: 'Grid',
    summary: 'Buy and sell orders on evenly spaced prices across a range you choose.',
    earns:
      'Each time the price falls to a level and bounces back one step, a buy and the sell above it both fill: one step of profit per round trip, minus fees. Sideways, choppy markets pay best.',
    loses:
      'A trend out of the range leaves it holding the wrong side: a fall through the bottom keeps every buy open at a loss, a rise through the top keeps the shorts (or leaves the longs sold early). Leverage multiplies this.',
  },
  {
    strategy: 'dca',
    title: 'DCA',
    summary:
      'One entry, then larger safety orders as the price moves against it, and one take-profit for all.',
    earns:
      'Each safety order lowers the average entry, so a small bounce reaches the take-profit above that average and closes everything at a gain.',
    loses:
      'If the price keeps going the wrong way after the last safety order, the whole position sits at a loss (closed at the stop-loss, if you set one). Safety orders grow, so the position is largest exactly when it is most wrong.',
  },
  {
    strategy: 'signal-rules',
    title: 'Signal rules',
    summary:
      'Enters and exits when indicator conditions you write hold on a closed bar (by default RSI 14 crossing 30).',
    earns:
      'When the rules catch moves that follow through: it buys after the signal and sells on the exit rule, ahead of the bulk of the move.',
    loses:
      'Signals that do not follow through: each false entry costs the move against it plus two fees. Rules fitted to the past can fail on the next month.',
  },
  {
    strategy: null,
    title: 'AI agent',
    summary: 'A bot whose decisions come from a trained model, with the same risk checks outside the model.',
    earns: 'From patterns a model learned on past data, if they hold in the market it trades.',
    loses: 'When the market stops behaving like the data it learned from; a model can be confidently wrong.',
    coming: 'Coming: AI agents are not available yet. Nothing here runs or trades.',
  },
];
