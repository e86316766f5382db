import { BOT_STATES, type BotState, type BotStatus, type BotsSummary } from '@kestrel/contracts/bots';
import type { Clock } from '../../lib/clock';
import { startOfUtcDay } from '../../lib/clock';
import type { Database } from '../../lib/database/database';
import { botEventRepository } from './bot-event-repository';
import { toEvent } from './bot-log';
import { type BotRow, botRepository } from './bot-repository';
import { findOwnBot, toBot } from './bot-rows';
import type { BotRunner } from './bot-runner';
import { OPEN_SESSION_STATES } from './bot-states';
import { botStatusRepository } from './bot-status-repository';
import type { PaperFigures } from './bot-step';

/** Events of a status answer */
const STATUS_EVENTS = 20;

export interface BotFiguresDeps {
  db: Database;
  clock: Clock;
}

/**
 * A bot's figures as its page and the dashboard read them: PnL (finished sessions from the log, the open one from
 * the instance running it), position, open orders, uptime, and the summary over every bot of the user
 */
export class BotFigures {
  constructor(
    private readonly deps: BotFiguresDeps,
    private readonly runner: Pick<BotRunner, 'figures'>,
  ) {}

  async status(userId: string, id: string): Promise<BotStatus> {
    const row = await findOwnBot(this.deps.db, userId, id);
    const now = this.deps.clock.now();
    const past = (
      await botEventRepository.pastPnl(this.deps.db, [row], new Date(startOfUtcDay(now.getTime())))
    ).get(id);
    const live = (await this.liveFigures([row])).get(id);
    const events = await botEventRepository.events(this.deps.db, id, STATUS_EVENTS);
    return {
      bot: toBot(row),
      realizedPnl: (past?.total ?? 0) + (live?.realizedPnl ?? 0),
      unrealizedPnl: live?.unrealizedPnl ?? 0,
      todayPnl: (past?.today ?? 0) + (live?.todayPnl ?? 0),
      positionQty: live?.positionQty ?? 0,
      entryPrice: live?.entryPrice ?? null,
      markPrice: live?.markPrice ?? null,
      openOrders: live?.openOrders ?? [],
      uptimeMs:
        OPEN_SESSION_STATES.has(row.state) && row.started_at
          ? Math.max(0, now.getTime() - row.started_at.getTime())
          : null,
      lastEvents: events.map(toEvent),
    };
  }

  /**
   * Counts by state and mode, and PnL over every bot: finished sessions from the log, open ones from the instance
   * running them (this one's memory, or what another instance last wrote)
   */
  async summary(userId: string): Promise<BotsSummary> {
    const rows = await botRepository.list(this.deps.db, userId);
    const byState = Object.fromEntries(BOT_STATES.map((s) => [s, 0])) as Record<BotState, number>;
    const past = await botEventRepository.pastPnl(
      this.deps.db,
      rows,
      new Date(startOfUtcDay(this.deps.clock.now().getTime())),
    );
    const summary: BotsSummary = {
      total: rows.length,
      running: 0,
      byState,
      paper: 0,
      live: 0,
      byEnvironment: { testnet: 0, mainnet: 0 },
      realizedPnl: 0,
      unrealizedPnl: 0,
      todayPnl: 0,
      bots: [],
    };
    const live = await this.liveFigures(rows);
    for (const r of rows) {
      byState[r.state]++;
      if (r.state === 'running') summary.running++;
      summary[r.mode]++;
      summary.byEnvironment[r.environment]++;
      const p = past.get(r.id);
      const f = live.get(r.id);
      const line = {
        id: r.id,
        name: r.name,
        symbol: r.symbol,
        mode: r.mode,
        state: r.state,
        environment: r.environment,
        realizedPnl: (p?.total ?? 0) + (f?.realizedPnl ?? 0),
        unrealizedPnl: f?.unrealizedPnl ?? 0,
        todayPnl: (p?.today ?? 0) + (f?.todayPnl ?? 0),
      };
      summary.bots.push(line);
      summary.realizedPnl += line.realizedPnl;
      summary.unrealizedPnl += line.unrealizedPnl;
      summary.todayPnl += line.todayPnl;
    }
    // Running bots are the ones a trader watches; the rest by name so the list does not jump between loads
    summary.bots.sort(
      (a, b) => Number(b.state === 'running') - Number(a.state === 'running') || a.name.localeCompare(b.name),
    );
    return summary;
  }

  /**
   * Figures of the open sessions of these bots: this instance's own (freshest) for the bots it runs, else the ones
   * the running instance last wrote. A bot that is not active has no open session (its PnL is in the log)
   */
  private async liveFigures(rows: readonly BotRow[]): Promise<Map<string, PaperFigures>> {
    const out = new Map<string, PaperFigures>();
    const active = rows.filter((r) => OPEN_SESSION_STATES.has(r.state));
    const elsewhere: BotRow[] = [];
    for (const r of active) {
      const mine = this.runner.figures(r.id);
      if (mine) out.set(r.id, mine);
      else elsewhere.push(r);
    }
    const stored = await botStatusRepository.statusOf(this.deps.db, elsewhere);
    for (const [id, { figures }] of stored) out.set(id, figures as unknown as PaperFigures);
    return out;
  }
}
