import { Button, Input } from '@kestrel/ui';
import { type FormEvent, useId, useState } from 'react';
import { type AnalyticsRange, customRangeError, RANGE_LABELS, RANGE_PRESETS } from '../lib/range';

const today = () => new Date().toISOString().slice(0, 10);

/** Presets as toggle buttons; "Custom" opens two UTC dates applied together */
export function RangePicker({
  value,
  onChange,
}: {
  value: AnalyticsRange;
  onChange: (range: AnalyticsRange) => void;
}) {
  const [custom, setCustom] = useState(value.preset === 'custom');
  const [from, setFrom] = useState(value.preset === 'custom' ? value.from : '');
  const [to, setTo] = useState(value.preset === 'custom' ? value.to : today());
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = customRangeError(from, to);
    setError(problem);
    if (!problem) onChange({ preset: 'custom', from, to });
  };
  return (
    <div className="db:flex db:flex-col db:items-start db:gap-2 db:sm:items-end">
      <fieldset className="db:flex db:flex-wrap db:gap-1">
        <legend className="db:sr-only">Range</legend>
        {RANGE_PRESETS.map((p) => (
          <Button
            key={p}
            size="sm"
            variant={value.preset === p && !custom ? 'default' : 'outline'}
            aria-pressed={value.preset === p && !custom}
            onClick={() => {
              setCustom(false);
              onChange({ preset: p });
            }}
          >
            {RANGE_LABELS[p]}
          </Button>
        ))}
        <Button
          size="sm"
          variant={custom ? 'default' : 'outline'}
          aria-pressed={custom}
          aria-expanded={custom}
          onClick={() => setCustom(true)}
        >
          {RANGE_LABELS.custom}
        </Button>
      </fieldset>
      {custom && (
        <form onSubmit={submit} noValidate className="db:flex db:flex-wrap db:items-end db:gap-2">
          <div className="db:flex db:flex-col db:gap-1 db:text-xs db:text-muted-foreground">
            <label htmlFor={`${id}-from`}>From (UTC)</label>
            <Input
              id={`${id}-from`}
              type="date"
              value={from}
              max={to || undefined}
              onChange={(e) => setFrom(e.target.value)}
              className="db:w-40"
            />
          </div>
          <div className="db:flex db:flex-col db:gap-1 db:text-xs db:text-muted-foreground">
            <label htmlFor={`${id}-to`}>To (UTC)</label>
            <Input
              id={`${id}-to`}
              type="date"
              value={to}
              min={from || undefined}
              onChange={(e) => setTo(e.target.value)}
              className="db:w-40"
            />
          </div>
          <Button type="submit" size="sm">
            Apply
          </Button>
          {error && (
            <p role="alert" className="db:w-full db:text-xs db:text-destructive">
              {error}
            </p>
          )}
        </form>
      )}
    </div>
  );
}
