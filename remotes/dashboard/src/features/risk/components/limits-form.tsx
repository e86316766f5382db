import { zodResolver } from '@hookform/resolvers/zod';
import {
  type RiskLimits,
  RiskLimitsFormSchema,
  type RiskLimitsFormValues,
  type StoredRiskLimits,
} from '@kestrel/contracts';
import { Button, formatDateTime } from '@kestrel/ui';
import { Form, FormMessage, type OptionalNumberField, OptionalNumberFields } from '@kestrel/ui/form';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';

const text = (n: number | null) => (n === null ? '' : String(n));
const toForm = (l: StoredRiskLimits): RiskLimitsFormValues => ({
  maxLeverage: text(l.maxLeverage),
  dailyLossLimit: text(l.dailyLossLimit),
  maxDrawdownPercent: text(l.maxDrawdownPercent),
  maxPositionNotional: text(l.maxPositionNotional),
});

const LIMITS: { name: keyof RiskLimitsFormValues; label: string; hint: string; unit: string }[] = [
  {
    name: 'maxLeverage',
    label: 'Max leverage',
    hint: '1–125: open notional / margin balance after an order',
    unit: '×',
  },
  {
    name: 'dailyLossLimit',
    label: 'Daily loss limit',
    hint: 'Since 00:00 UTC, realized + unrealized; new exposure stops until the next UTC day',
    unit: 'USDT',
  },
  {
    name: 'maxDrawdownPercent',
    label: 'Max drawdown',
    hint: 'Below the highest recorded equity; new exposure stops until you raise it',
    unit: '%',
  },
  {
    name: 'maxPositionNotional',
    label: 'Max position notional',
    hint: 'Per symbol, after an order',
    unit: 'USDT',
  },
];

const FIELDS: OptionalNumberField<RiskLimitsFormValues>[] = LIMITS.map((f) => ({
  name: f.name,
  label: `${f.label} (${f.unit})`,
  hint: f.hint,
}));

/**
 * The account limits, validated by the contracts' schema (empty = no limit). The server checks every order
 * against them; orders that only reduce exposure always pass
 */
export function LimitsForm({
  limits,
  onSave,
}: {
  limits: StoredRiskLimits;
  /** Resolves when saved; a rejection's message is shown under the form */
  onSave: (limits: RiskLimits) => Promise<unknown>;
}) {
  const form = useForm<RiskLimitsFormValues, unknown, RiskLimits>({
    resolver: zodResolver(RiskLimitsFormSchema),
    defaultValues: toForm(limits),
  });
  const { reset } = form;
  // A save or another tab's change arrives: show what is stored (unless the user is typing)
  useEffect(() => {
    if (!form.formState.isDirty) reset(toForm(limits));
  }, [limits, reset, form.formState.isDirty]);

  const submit = async (values: RiskLimits) => {
    try {
      await onSave(values);
      reset(toForm({ ...values, updatedAt: null }));
    } catch (err) {
      form.setError('root', {
        message: err instanceof Error ? err.message : 'The limits could not be saved',
      });
    }
  };

  return (
    <Form form={form} onSubmit={submit} aria-label="Account limits">
      <OptionalNumberFields<RiskLimitsFormValues> fields={FIELDS} className="db:sm:grid-cols-2" />
      <FormMessage />
      <div className="db:flex db:flex-wrap db:items-center db:gap-3">
        <Button type="submit" disabled={form.formState.isSubmitting}>
          {form.formState.isSubmitting ? 'Saving…' : 'Save limits'}
        </Button>
        {limits.updatedAt !== null && (
          <span className="db:text-xs db:text-muted-foreground">
            Last changed {formatDateTime(limits.updatedAt)} UTC
          </span>
        )}
      </div>
    </Form>
  );
}
