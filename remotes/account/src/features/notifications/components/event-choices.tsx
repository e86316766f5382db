import { NOTIFICATION_EVENT_LABELS, type NotificationEvent } from '@kestrel/contracts/account';
import type { ReactNode } from 'react';

/** The events a channel (a webhook, a Telegram chat) may be told about, as checkboxes under `legend` */
export function EventChoices<E extends NotificationEvent>({
  legend,
  events,
  chosen,
  onChange,
  children,
}: {
  legend: string;
  events: readonly E[];
  chosen: readonly E[];
  onChange: (next: E[]) => void;
  /** Below the boxes, inside the fieldset (its field error) */
  children?: ReactNode;
}) {
  return (
    <fieldset className="ac:flex ac:flex-col ac:gap-1.5">
      <legend className="ac:mb-1 ac:text-sm ac:font-medium">{legend}</legend>
      <div className="ac:grid ac:gap-1.5 ac:sm:grid-cols-2">
        {events.map((event) => (
          <label key={event} className="ac:flex ac:items-center ac:gap-2 ac:text-sm">
            <input
              type="checkbox"
              className="ac:size-4 ac:accent-primary"
              checked={chosen.includes(event)}
              onChange={(e) =>
                onChange(e.target.checked ? [...chosen, event] : chosen.filter((x) => x !== event))
              }
            />
            {NOTIFICATION_EVENT_LABELS[event]}
          </label>
        ))}
      </div>
      {children}
    </fieldset>
  );
}
