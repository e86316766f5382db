import type { Bot, BotOrder, BotStatus } from '@kestrel/contracts/bots';
import { useLiveMarkPrices, useTradingEnvironment } from '@kestrel/shared-runtime/react';
import { Link } from '@kestrel/shared-runtime/router';
import {
  Button,
  buttonVariants,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  EnvironmentBadge,
  formatDateTime,
  formatPrice,
  formatQuantity,
  ScrollRegion,
  Spinner,
} from '@kestrel/ui';
import { type Figure, FigureGrid } from '@kestrel/ui/figures';
import { useState } from 'react';
import { paths } from '../../../config/paths';
import { useNow } from '../../../lib/use-now';
import type { BotAction } from '../api/bot-actions';
import { useBotEvents } from '../api/get-bot-events';
import { useBotStatus } from '../api/get-bot-status';
import {
  canEdit,
  canStart,
  canStop,
  describeBot,
  formatUptime,
  isIdle,
  isLive,
  uptimeNow,
} from '../lib/bot-words';
import { atLiveMark } from '../lib/live-mark';
import { ladder, ladderDecimals, orderStatusWords, orderTypeWords } from '../lib/order-ladder';
import { pnlFigures } from '../lib/pnl-figures';
import { BotLogLines } from './bot-log';
import { BotSignals } from './bot-signals';
import { BotStateBadge } from './bot-state-badge';
import { BotStory } from './bot-story';
import { DriftPanel } from './drift-report';

/** "Long 0.010 @ 50,120.00", "Short 2 @ 0.5120", or "Flat" */
export function positionText(status: Pick<BotStatus, 'positionQty' | 'entryPrice'>): string {
  if (status.positionQty === 0) return 'Flat';
  const side = status.positionQty > 0 ? 'Long' : 'Short';
  const entry = status.entryPrice === null ? '' : ` @ ${formatPrice(status.entryPrice)}`;
  return `${side} ${formatQuantity(Math.abs(status.positionQty))}${entry}`;
}

function statusFigures(status: BotStatus): Figure[] {
  return [
    ...pnlFigures(status),
    {
      key: 'position',
      label: 'Position',
      value: positionText(status),
      ...(status.markPrice !== null ? { hint: `mark ${formatPrice(status.markPrice)}` } : {}),
    },
    { key: 'orders', label: 'Open orders', value: String(status.openOrders.length) },
    { key: 'uptime', label: 'Uptime', value: formatUptime(status.uptimeMs) },
  ];
}

function OpenOrders({
  orders,
  mark,
  botName,
}: {
  orders: readonly BotOrder[];
  mark: number | null;
  botName: string;
}) {
  const places = ladderDecimals(orders, mark);
  const figure = (value: string | number, precision: number) => formatQuantity(Number(value), { precision });
  return (
    <ScrollRegion label={`Open orders of ${botName}`}>
      <table className="bt:w-full bt:text-sm">
        <caption className="bt:sr-only">
          Open orders of {botName}, highest price first{mark === null ? '' : ', with the mark among them'}
        </caption>
        <thead className="bt:text-left bt:text-xs bt:text-muted-foreground">
          <tr>
            <th className="bt:py-1 bt:pr-3 bt:font-medium">Side</th>
            <th className="bt:py-1 bt:pr-3 bt:font-medium">Type</th>
            <th className="bt:py-1 bt:pr-3 bt:text-right bt:font-medium">Price</th>
            <th className="bt:py-1 bt:pr-3 bt:text-right bt:font-medium">Quantity</th>
            <th className="bt:py-1 bt:font-medium">Status</th>
          </tr>
        </thead>
        <tbody>
          {ladder(orders, mark).map((row) =>
            row.kind === 'mark' ? (
              <tr key="mark" data-row="mark" className="bt:border-t bt:border-border bt:bg-muted">
                <td colSpan={2} className="bt:py-1 bt:pr-3 bt:text-xs bt:text-muted-foreground">
                  Mark
                </td>
                <td className="bt:py-1 bt:pr-3 bt:text-right bt:font-mono bt:font-semibold bt:tabular-nums">
                  {figure(row.price, places.price)}
                </td>
                <td colSpan={2} />
              </tr>
            ) : (
              <tr key={row.order.clientOrderId} className="bt:border-t bt:border-border">
                <td
                  className={`bt:py-1 bt:pr-3 ${row.order.side === 'BUY' ? 'bt:text-success' : 'bt:text-destructive'}`}
                >
                  {row.order.side === 'BUY' ? 'Buy' : 'Sell'}
                  {row.order.reduceOnly ? ' (reduce)' : ''}
                </td>
                <td className="bt:py-1 bt:pr-3 bt:whitespace-nowrap">{orderTypeWords(row.order.type)}</td>
                <td className="bt:py-1 bt:pr-3 bt:text-right bt:font-mono bt:tabular-nums bt:whitespace-nowrap">
                  {row.order.price !== null ? (
                    figure(row.order.price, places.price)
                  ) : row.order.triggerPrice ? (
                    <>
                      <span className="bt:font-sans bt:text-xs bt:text-muted-foreground">trigger </span>
                      {figure(row.order.triggerPrice, places.price)}
                    </>
                  ) : (
                    'market'
                  )}
                </td>
                <td className="bt:py-1 bt:pr-3 bt:text-right bt:font-mono bt:tabular-nums">
                  {row.order.closePosition ? (
                    <span className="bt:font-sans">All</span>
                  ) : (
                    figure(row.order.quantity, places.quantity)
                  )}
                </td>
                <td className="bt:py-1 bt:whitespace-nowrap">{orderStatusWords(row.order.status)}</td>
              </tr>
            ),
          )}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

/** The whole log, streamed: pushes put new lines on top (`useBotNotices`) */
function FullLog({ bot }: { bot: Bot }) {
  const log = useBotEvents(bot.id);
  if (log.isPending) return <Spinner label="Loading the log…" />;
  if (log.error) {
    return (
      <p role="alert" className="bt:text-sm bt:text-destructive">
        The log could not be loaded: {log.error.message}
      </p>
    );
  }
  if (log.data.length === 0)
    return <p className="bt:text-sm bt:text-muted-foreground">Nothing logged yet.</p>;
  return (
    <section
      aria-label={`Scrollable log of ${bot.name}`}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (WCAG 2.1.1)
      tabIndex={0}
      className="bt:max-h-72 bt:overflow-y-auto bt:rounded-md bt:border bt:border-border bt:p-2 bt:focus-visible:outline-2 bt:focus-visible:outline-ring"
    >
      <BotLogLines events={log.data} label={`Log of ${bot.name}`} />
    </section>
  );
}

/** A bot's figures and its open-orders ladder (the mark among them) */
function BotFigures({ status, botName }: { status: BotStatus; botName: string }) {
  return (
    <>
      <FigureGrid
        label={`Figures of ${botName}`}
        className="bt:lg:grid-cols-6"
        figures={statusFigures(status)}
      />
      {status.openOrders.length > 0 && (
        <OpenOrders orders={status.openOrders} mark={status.markPrice} botName={botName} />
      )}
    </>
  );
}

export interface BotCardProps {
  bot: Bot;
  strategyName: string;
  /** Its strategy trades on the alerts its webhook receives (the catalogue's `takesSignals`) */
  takesSignals?: boolean;
  onAction: (bot: Bot, action: BotAction) => void;
}

/** One bot on /active-bots: state and why it stopped, PnL, position, orders, uptime, last events, log, actions */
export function BotCard({ bot: listed, strategyName, takesSignals = false, onAction }: BotCardProps) {
  const read = useBotStatus(listed.id);
  const [logOpen, setLogOpen] = useState(false);
  const [driftOpen, setDriftOpen] = useState(false);
  const [storyOpen, setStoryOpen] = useState(false);
  // The status is read more often than the list (every 5 s while running, and on each push)
  const bot = read.data?.bot ?? listed;
  // Between reads a running bot's mark and PnL follow the exchange's pushed mark price (its own environment's only)
  const { currentEnvironment } = useTradingEnvironment();
  const follows = isLive(bot.state) && bot.environment === currentEnvironment;
  const pushed = useLiveMarkPrices(follows ? [bot.symbol] : []).get(bot.symbol.toUpperCase());
  const mark = pushed ? Number(pushed.markPrice) : undefined;
  const titleId = `bot-${bot.id}-name`;
  const stopped = bot.state === 'stopped' || bot.state === 'error';
  const running = bot.state === 'running';
  const now = useNow(running);

  return (
    <Card id={`bot-${bot.id}`} aria-labelledby={titleId} role="region" data-bot-state={bot.state}>
      <CardHeader className="bt:flex bt:flex-row bt:flex-wrap bt:items-start bt:justify-between bt:gap-2">
        <div className="bt:flex bt:min-w-0 bt:flex-col bt:gap-1">
          <CardTitle id={titleId} className="bt:flex bt:flex-wrap bt:items-center bt:gap-2">
            <span className="bt:break-all">{bot.name}</span>
            <BotStateBadge state={bot.state} />
            {/* Where it trades: its owner's environment when it was made, whatever the top bar says now */}
            <EnvironmentBadge environment={bot.environment} />
          </CardTitle>
          <CardDescription>{describeBot(bot, strategyName)}</CardDescription>
        </div>
        <div className="bt:flex bt:flex-wrap bt:gap-2">
          {bot.kind === 'agent' && (
            <Link
              to={paths.agent.getHref(bot.id)}
              className={buttonVariants({ size: 'sm', variant: 'secondary' })}
              aria-label={`Open the agent page of ${bot.name}`}
            >
              Agent page
            </Link>
          )}
          {canStart(bot.state) && (
            <Button size="sm" onClick={() => onAction(bot, 'start')}>
              {bot.state === 'paused' ? 'Resume' : 'Start'}
            </Button>
          )}
          {bot.state === 'running' && (
            <Button size="sm" variant="outline" onClick={() => onAction(bot, 'pause')}>
              Pause
            </Button>
          )}
          {canStop(bot.state) && (
            <Button size="sm" variant="destructive" onClick={() => onAction(bot, 'stop')}>
              Stop
            </Button>
          )}
          {canEdit(bot.state) && (
            <Link
              to={paths.createBot.getHref({ edit: bot.id })}
              className={buttonVariants({ size: 'sm', variant: 'outline' })}
              aria-label={`Edit ${bot.name}`}
            >
              Edit
            </Link>
          )}
          <Link
            to={paths.createBot.getHref({ clone: bot.id })}
            className={buttonVariants({ size: 'sm', variant: 'outline' })}
            aria-label={`Clone ${bot.name}`}
          >
            Clone
          </Link>
          {isIdle(bot.state) && (
            <Button
              size="sm"
              variant="outline"
              onClick={() => onAction(bot, 'delete')}
              aria-label={`Delete ${bot.name}`}
            >
              Delete
            </Button>
          )}
        </div>
      </CardHeader>
      <CardContent className="bt:flex bt:flex-col bt:gap-4">
        {bot.state === 'paused' && (
          <p className="bt:rounded-md bt:border bt:border-warning bt:bg-warning/10 bt:px-3 bt:py-2 bt:text-sm">
            {bot.stoppedAt !== null ? `Paused ${formatDateTime(bot.stoppedAt)} UTC. ` : 'Paused. '}
            {bot.mode === 'live'
              ? `The orders it left on ${bot.symbol} stay on the exchange and may fill; it places nothing new until you resume it, which cancels what still stands and lays its orders anew.`
              : 'It places nothing until you resume it, which lays its paper orders anew from the price then.'}
          </p>
        )}
        {stopped && bot.stopReason && (
          <p
            role={bot.state === 'error' ? 'alert' : undefined}
            className={
              bot.state === 'error'
                ? 'bt:rounded-md bt:border bt:border-destructive bt:bg-destructive/10 bt:px-3 bt:py-2 bt:text-sm bt:text-destructive'
                : 'bt:text-sm bt:text-muted-foreground'
            }
          >
            {bot.stoppedAt !== null ? `Stopped ${formatDateTime(bot.stoppedAt)} UTC: ` : 'Stopped: '}
            {bot.stopReason}
          </p>
        )}
        {read.isPending ? (
          <Spinner label="Loading its figures…" />
        ) : read.error ? (
          <div
            role="alert"
            className="bt:flex bt:flex-wrap bt:items-center bt:gap-2 bt:text-sm bt:text-destructive"
          >
            Its figures could not be loaded: {read.error.message}
            <Button size="sm" variant="outline" onClick={() => void read.refetch()}>
              Retry
            </Button>
          </div>
        ) : (
          <>
            <BotFigures
              status={{
                ...atLiveMark(read.data, mark),
                uptimeMs: uptimeNow(read.data.uptimeMs, read.dataUpdatedAt, now, running),
              }}
              botName={bot.name}
            />
            {/* A webhook-signal bot trades through its webhook alone: its signals come right after its figures */}
            {takesSignals && <BotSignals bot={bot} takesSignals />}
            <div className="bt:flex bt:flex-col bt:gap-2">
              <div className="bt:flex bt:items-center bt:justify-between bt:gap-2">
                <h3 className="bt:text-sm bt:font-semibold">{logOpen ? 'Log' : 'Last events'}</h3>
                <Button
                  size="sm"
                  variant="ghost"
                  aria-expanded={logOpen}
                  onClick={() => setLogOpen((o) => !o)}
                >
                  {logOpen ? 'Hide log' : 'Show log'}
                </Button>
              </div>
              {logOpen ? (
                <FullLog bot={bot} />
              ) : read.data.lastEvents.length === 0 ? (
                <p className="bt:text-sm bt:text-muted-foreground">Nothing logged yet.</p>
              ) : (
                <BotLogLines events={read.data.lastEvents.slice(0, 5)} label={`Last events of ${bot.name}`} />
              )}
            </div>
            {bot.startedAt !== null && (
              <div className="bt:flex bt:flex-col bt:gap-2">
                <div className="bt:flex bt:items-center bt:justify-between bt:gap-2">
                  <h3 className="bt:text-sm bt:font-semibold">Chart and PnL</h3>
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-expanded={storyOpen}
                    // The visible words begin the accessible name (WCAG 2.5.3)
                    aria-label={`${storyOpen ? 'Hide' : 'Show'} chart of ${bot.name}`}
                    onClick={() => setStoryOpen((o) => !o)}
                  >
                    {storyOpen ? 'Hide chart' : 'Show chart'}
                  </Button>
                </div>
                {storyOpen && <BotStory bot={bot} orders={read.data.openOrders} />}
              </div>
            )}
            {/* Only a bot that has run has something to compare with a backtest */}
            {bot.startedAt !== null && (
              <div className="bt:flex bt:flex-col bt:gap-2">
                <div className="bt:flex bt:items-center bt:justify-between bt:gap-2">
                  <h3 className="bt:text-sm bt:font-semibold">Drift against a backtest</h3>
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-expanded={driftOpen}
                    aria-label={`${driftOpen ? 'Hide' : 'Show'} drift of ${bot.name}`}
                    onClick={() => setDriftOpen((o) => !o)}
                  >
                    {driftOpen ? 'Hide drift' : 'Show drift'}
                  </Button>
                </div>
                {driftOpen && <DriftPanel botId={bot.id} botName={bot.name} />}
              </div>
            )}
            {!takesSignals && <BotSignals bot={bot} takesSignals={false} />}
          </>
        )}
      </CardContent>
    </Card>
  );
}
