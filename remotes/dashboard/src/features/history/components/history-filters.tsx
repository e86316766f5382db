import { INCOME_TYPES, incomeTypeName, ORDER_TYPES } from '@kestrel/contracts';
import { Button, Input, NativeSelect } from '@kestrel/ui';
import { type ReactNode, useId } from 'react';
import {
  customRange,
  type HistoryFilter,
  presetFrom,
  RANGE_PRESETS,
  type RangePreset,
} from '../lib/history-filter';
import { words } from './history-columns';

export type HistoryTab = 'trades' | 'orders' | 'income';

const ORDER_STATUSES = ['NEW', 'PARTIALLY_FILLED', 'FILLED', 'CANCELED', 'REJECTED', 'EXPIRED'] as const;

export interface RangeChoice {
  preset: RangePreset;
  /** The custom range's days, "YYYY-MM-DD" (UTC) */
  fromDay: string;
  toDay: string;
}

export interface HistoryFiltersProps {
  tab: HistoryTab;
  filter: HistoryFilter;
  onFilterChange: (filter: HistoryFilter) => void;
  range: RangeChoice;
  onRangeChange: (range: RangeChoice) => void;
  symbols: readonly string[];
  now: () => number;
}

/** A labelled control of the bar: the label above, small */
function Labelled({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="db:flex db:min-w-0 db:flex-col db:gap-1">
      <label htmlFor={id} className="db:text-xs db:font-medium db:text-muted-foreground">
        {label}
      </label>
      {children}
    </div>
  );
}

/**
 * The filter bar: symbol, side (not for income), type (orders and income), status (orders), and the range as
 * presets (24 h to 90 d, counted back from when picked) or two UTC days. Wraps on narrow screens
 */
export function HistoryFilters({
  tab,
  filter,
  onFilterChange,
  range,
  onRangeChange,
  symbols,
  now,
}: HistoryFiltersProps) {
  const id = useId();
  const set = (patch: Partial<HistoryFilter>) => onFilterChange({ ...filter, ...patch });
  const types = tab === 'orders' ? ORDER_TYPES : tab === 'income' ? INCOME_TYPES : [];
  const pickPreset = (preset: RangePreset) => {
    onRangeChange({ ...range, preset });
    if (preset !== 'custom') set({ from: presetFrom(preset, now()), to: undefined });
    else {
      const days = customRange(range.fromDay, range.toDay);
      if (days) set(days);
    }
  };
  const pickDay = (key: 'fromDay' | 'toDay', day: string) => {
    const next = { ...range, preset: 'custom' as const, [key]: day };
    onRangeChange(next);
    const days = customRange(next.fromDay, next.toDay);
    if (days) set(days);
  };
  const badRange = range.preset === 'custom' && customRange(range.fromDay, range.toDay) === undefined;

  return (
    <search aria-label="Filters" className="db:flex db:flex-wrap db:items-end db:gap-3">
      <Labelled id={`${id}-symbol`} label="Symbol">
        <NativeSelect
          id={`${id}-symbol`}
          className="db:w-36"
          value={filter.symbol ?? ''}
          onChange={(e) => set({ symbol: e.target.value || undefined })}
        >
          <option value="">All symbols</option>
          {symbols.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </NativeSelect>
      </Labelled>
      {tab !== 'income' && (
        <Labelled id={`${id}-side`} label="Side">
          <NativeSelect
            id={`${id}-side`}
            className="db:w-28"
            value={filter.side ?? ''}
            onChange={(e) => set({ side: (e.target.value || undefined) as HistoryFilter['side'] })}
          >
            <option value="">Both</option>
            <option value="BUY">Buy</option>
            <option value="SELL">Sell</option>
          </NativeSelect>
        </Labelled>
      )}
      {types.length > 0 && (
        <Labelled id={`${id}-type`} label="Type">
          <NativeSelect
            id={`${id}-type`}
            className="db:w-44"
            value={filter.type ?? ''}
            onChange={(e) => set({ type: e.target.value || undefined })}
          >
            <option value="">All types</option>
            {types.map((t) => (
              <option key={t} value={t}>
                {tab === 'income' ? incomeTypeName(t) : words(t)}
              </option>
            ))}
          </NativeSelect>
        </Labelled>
      )}
      {tab === 'orders' && (
        <Labelled id={`${id}-status`} label="Status">
          <NativeSelect
            id={`${id}-status`}
            className="db:w-40"
            value={filter.status ?? ''}
            onChange={(e) => set({ status: e.target.value || undefined })}
          >
            <option value="">Any status</option>
            {ORDER_STATUSES.map((s) => (
              <option key={s} value={s}>
                {words(s)}
              </option>
            ))}
          </NativeSelect>
        </Labelled>
      )}
      <fieldset className="db:flex db:min-w-0 db:flex-col db:gap-1">
        <legend className="db:mb-1 db:text-xs db:font-medium db:text-muted-foreground">Range</legend>
        <div className="db:flex db:flex-wrap db:gap-1">
          {[
            ...RANGE_PRESETS.map((p) => ({ id: p.id as RangePreset, label: p.label })),
            { id: 'custom' as const, label: 'Custom' },
          ].map((p) => (
            <Button
              key={p.id}
              size="sm"
              variant={range.preset === p.id ? 'default' : 'outline'}
              aria-pressed={range.preset === p.id}
              onClick={() => pickPreset(p.id)}
            >
              {p.label}
            </Button>
          ))}
        </div>
      </fieldset>
      {range.preset === 'custom' && (
        <div className="db:flex db:flex-wrap db:items-end db:gap-2">
          <Labelled id={`${id}-from`} label="From (UTC)">
            <Input
              id={`${id}-from`}
              type="date"
              className="db:w-40"
              value={range.fromDay}
              aria-invalid={badRange || undefined}
              onChange={(e) => pickDay('fromDay', e.target.value)}
            />
          </Labelled>
          <Labelled id={`${id}-to`} label="To (UTC)">
            <Input
              id={`${id}-to`}
              type="date"
              className="db:w-40"
              value={range.toDay}
              aria-invalid={badRange || undefined}
              onChange={(e) => pickDay('toDay', e.target.value)}
            />
          </Labelled>
          {badRange && (
            <p role="alert" className="db:text-xs db:text-destructive">
              Pick a start day on or before the end day.
            </p>
          )}
        </div>
      )}
    </search>
  );
}
