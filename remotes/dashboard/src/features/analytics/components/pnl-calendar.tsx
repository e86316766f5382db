import type { AnalyticsDay } from '@kestrel/contracts';
import { formatPnl, formatUsdt, ScrollRegion } from '@kestrel/ui';
import { useMemo } from 'react';
import { CardPanel } from '../../../components/card-panel';
import { type CalendarDay, calendarColor, calendarLayout } from '../lib/calendar';

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const CELL = 'db:size-4 db:rounded-[3px] db:sm:size-5';

/** What a square says: "2026-11-03: +12.40 USDT", or that the day had no result */
export function dayLabel(d: CalendarDay): string {
  return d.net === null ? `${d.date}: no trading` : `${d.date}: ${formatPnl(d.net).text} USDT`;
}

/**
 * Net result per UTC day as a heat map: a column per week (Monday on top), green for a gain and red for a loss,
 * deeper for larger results. A table to assistive tech, each square named by its date and result; long ranges
 * scroll sideways inside the frame
 */
export function PnlCalendar({ days, from, to }: { days: readonly AnalyticsDay[]; from: number; to: number }) {
  const layout = useMemo(() => calendarLayout(days, from, to), [days, from, to]);
  return (
    <CardPanel id="pnl-calendar-title" title="Daily PnL">
      <ScrollRegion label="Daily PnL calendar (scrolls sideways)" className="db:pb-1">
        <table aria-label="Net result per UTC day" className="db:border-separate db:border-spacing-1">
          <tbody>
            {WEEKDAYS.map((name, row) => (
              <tr key={name}>
                <th
                  scope="row"
                  className="db:w-8 db:pr-1 db:text-left db:text-xs db:font-normal db:text-muted-foreground"
                >
                  {name}
                </th>
                {layout.weeks.map((week) => {
                  const d = week[row];
                  const key = `${week.find((w) => w)?.day}-${row}`;
                  if (!d) return <td key={key} className="db:p-0" />;
                  return (
                    <td
                      key={key}
                      aria-label={dayLabel(d)}
                      title={dayLabel(d)}
                      data-tone={
                        d.net === null ? 'none' : d.net > 0 ? 'positive' : d.net < 0 ? 'negative' : 'none'
                      }
                      className="db:p-0"
                    >
                      <span
                        aria-hidden="true"
                        className={`${CELL} db:block db:border db:border-border/40`}
                        style={{ backgroundColor: calendarColor(d) }}
                      />
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      <p className="db:flex db:flex-wrap db:items-center db:gap-x-4 db:gap-y-1 db:text-xs db:text-muted-foreground">
        <span className="db:inline-flex db:items-center db:gap-1">
          <span aria-hidden="true" className={CELL} style={{ backgroundColor: 'var(--destructive)' }} /> Loss
        </span>
        <span className="db:inline-flex db:items-center db:gap-1">
          <span aria-hidden="true" className={CELL} style={{ backgroundColor: 'var(--muted)' }} /> No result
        </span>
        <span className="db:inline-flex db:items-center db:gap-1">
          <span aria-hidden="true" className={CELL} style={{ backgroundColor: 'var(--success)' }} /> Gain
        </span>
        {layout.maxAbs > 0 && (
          <span>Deepest colour: ±{formatUsdt(layout.maxAbs)} USDT (the range’s largest day)</span>
        )}
      </p>
    </CardPanel>
  );
}
