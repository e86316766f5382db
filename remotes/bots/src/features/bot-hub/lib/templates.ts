/** The engine's strategy id of the AI agent: a bot of this strategy is an agent (`kind: 'agent'`) */
export const AGENT_STRATEGY = 'ml-agent';

/** A starting point on the hub: a built-in strategy explained in plain words, the AI agent among them */
export interface BotTemplate {
  /** The engine's strategy id */
  strategy: string;
  title: string;
  summary: string;
  /** How it makes money */
  earns: string;
  /** How it loses money */
  loses: string;
  /**
   * Why the hub shows no 7-day backtest of it (the agent trains on more history than that window holds; its own
   * page shows walk-forward evidence instead); absent: the hub backtests it with its defaults
   */
  noQuickBacktest?: string;
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
    strategy: AGENT_STRATEGY,
    title: 'AI agent',
    summary:
      'A bot whose decisions come from a model trained on recent bars, with every decision, and why, on its own page.',
    earns:
      'From patterns the model learned on past data, when they hold in the market it trades: it enters only when its probability clears the threshold and the expected move beats fees and slippage.',
    loses:
      'When the market stops behaving like the data it learned from: a model can be confidently wrong. Risk checks outside the model cap the damage, and a kill stops it until you reset it.',
    noQuickBacktest:
      'No 7-day figures: the agent trains on more history than that. After training, its page shows out-of-sample results against buy-and-hold and random entries.',
  },
  {
    strategy: 'webhook-signal',
    title: 'Webhook signals',
    summary:
      'Trades the alerts your charting tool posts to its webhook (a TradingView alert, say): buy, sell or close, at once.',
    earns:
      'When the alerts are right: your indicators or strategy on the chart decide, and the bot places each order as the alert arrives, sized from its budget, with an optional stop-loss and take-profit.',
    loses:
      'When the alerts are wrong, or late: it follows them without a judgement of its own. An alert that never fires leaves a position open until the next one (or its stop). Live only: on the simulator or testnet no money is at stake.',
    noQuickBacktest:
      'No 7-day figures: it trades only on alerts, and past bars carry none. Its card on Active bots lists each alert received and what it did.',
  },
];
