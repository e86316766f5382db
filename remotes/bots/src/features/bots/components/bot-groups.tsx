import type { Bot } from '@kestrel/contracts/bots';
import { Link } from '@kestrel/shared-runtime/router';
import { Button } from '@kestrel/ui';
import { paths } from '../../../config/paths';
import type { BotAction } from '../api/bot-actions';
import { type BotGroup, canStart, canStop, describeBot, GROUP_TITLES, groupBots } from '../lib/bot-words';
import { BotStateBadge } from './bot-state-badge';

const GROUPS: readonly BotGroup[] = ['running', 'paused', 'stopped', 'error'];

export interface BotGroupsProps {
  bots: readonly Bot[];
  strategyName: (id: string) => string;
  /** Start or stop; the route decides whether it asks first (live bots) */
  onAction: (bot: Bot, action: BotAction) => void;
  /** The bot whose action is being sent (its button is off) */
  busyId: string | null;
}

/**
 * The user's bots by state (running, stopped, error; paused ones apart when there are any), each with its quick
 * start (resume) or stop
 */
export function BotGroups({ bots, strategyName, onAction, busyId }: BotGroupsProps) {
  const groups = groupBots(bots);
  const shown = GROUPS.filter((g) => g !== 'paused' || groups.paused.length > 0);
  return (
    <div
      className={`bt:grid bt:grid-cols-1 bt:gap-4 ${shown.length === 4 ? 'bt:md:grid-cols-2 bt:xl:grid-cols-4' : 'bt:lg:grid-cols-3'}`}
    >
      {shown.map((group) => (
        <section
          key={group}
          aria-labelledby={`bots-${group}`}
          className="bt:flex bt:min-w-0 bt:flex-col bt:gap-2 bt:rounded-xl bt:border bt:border-border bt:bg-card bt:p-3"
        >
          <h3 id={`bots-${group}`} className="bt:text-sm bt:font-semibold">
            {GROUP_TITLES[group]} <span className="bt:text-muted-foreground">({groups[group].length})</span>
          </h3>
          {groups[group].length === 0 ? (
            <p className="bt:text-sm bt:text-muted-foreground">
              {group === 'running'
                ? 'None running.'
                : group === 'error'
                  ? 'None stopped by an error.'
                  : 'None.'}
            </p>
          ) : (
            <ul
              aria-label={`${GROUP_TITLES[group]} bots`}
              className="bt:flex bt:flex-col bt:divide-y bt:divide-border"
            >
              {groups[group].map((bot) => (
                <li
                  key={bot.id}
                  className="bt:flex bt:flex-wrap bt:items-center bt:justify-between bt:gap-2 bt:py-2"
                >
                  {/* Its name keeps room in a narrow column: the buttons wrap under it rather than squeeze it */}
                  <div className="bt:flex bt:min-w-32 bt:flex-1 bt:flex-col">
                    <Link
                      // An agent's place is its own page (decisions, evidence); a bot's is its card
                      to={
                        bot.kind === 'agent' ? paths.agent.getHref(bot.id) : paths.activeBots.getHref(bot.id)
                      }
                      className="bt:truncate bt:text-sm bt:font-medium bt:underline-offset-4 bt:hover:underline"
                    >
                      {bot.name}
                    </Link>
                    <span className="bt:truncate bt:text-xs bt:text-muted-foreground">
                      {describeBot(bot, strategyName(bot.strategy))}
                    </span>
                    {bot.state === 'error' && bot.stopReason && (
                      <span className="bt:text-xs bt:text-destructive">{bot.stopReason}</span>
                    )}
                  </div>
                  <div className="bt:flex bt:shrink-0 bt:items-center bt:gap-2">
                    <BotStateBadge state={bot.state} />
                    {canStart(bot.state) && (
                      <Button
                        size="sm"
                        variant="outline"
                        disabled={busyId === bot.id}
                        aria-label={`${bot.state === 'paused' ? 'Resume' : 'Start'} ${bot.name}`}
                        onClick={() => onAction(bot, 'start')}
                      >
                        {bot.state === 'paused' ? 'Resume' : 'Start'}
                      </Button>
                    )}
                    {canStop(bot.state) && (
                      <Button
                        size="sm"
                        variant="outline"
                        disabled={busyId === bot.id}
                        aria-label={`Stop ${bot.name}`}
                        onClick={() => onAction(bot, 'stop')}
                      >
                        Stop
                      </Button>
                    )}
                  </div>
                </li>
              ))}
            </ul>
          )}
        </section>
      ))}
    </div>
  );
}
