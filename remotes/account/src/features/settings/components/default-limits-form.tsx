import { zodResolver } from '@hookform/resolvers/zod';
import {
  BotRiskLimitsFormSchema,
  type BotRiskLimitsFormValues,
  type StoredAccountSettings,
} from '@kestrel/contracts/account';
import type { BotRiskLimits } from '@kestrel/contracts/bots';
import { formatDateTime } from '@kestrel/ui';
import { Form, FormMessage, type OptionalNumberField, OptionalNumberFields } from '@kestrel/ui/form';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { DoneNote, SubmitRow } from '../../../components/form-parts';
import { failureText } from '../../../lib/failure-text';

const text = (n: number | null) => (n === null ? '' : String(n));
const toForm = (l: BotRiskLimits): BotRiskLimitsFormValues => ({
  maxNotional: text(l.maxNotional),
  dailyLossLimit: text(l.dailyLossLimit),
  maxDrawdownPercent: text(l.maxDrawdownPercent),
});

const FIELDS: OptionalNumberField<BotRiskLimitsFormValues>[] = [
  {
    name: 'maxNotional',
    label: 'Max notional (USDT)',
    hint: "1 to 1,000,000,000: the bot's position after an order",
  },
  { name: 'dailyLossLimit', label: 'Daily loss limit (USDT)', hint: 'Realized + unrealized since 00:00 UTC' },
  {
    name: 'maxDrawdownPercent',
    label: 'Max drawdown (%)',
    hint: "0.01 to 100, below the bot's highest equity",
  },
];

/** The limits a new bot starts with (its form is prefilled with them); empty = no limit of the bot's own */
export function DefaultLimitsForm({
  settings,
  onSave,
}: {
  settings: StoredAccountSettings;
  onSave: (limits: BotRiskLimits) => Promise<unknown>;
}) {
  const form = useForm<BotRiskLimitsFormValues, unknown, BotRiskLimits>({
    resolver: zodResolver(BotRiskLimitsFormSchema),
    defaultValues: toForm(settings.defaultBotRiskLimits),
  });
  const [saved, setSaved] = useState(false);
  const { reset } = form;
  useEffect(() => {
    if (!form.formState.isDirty) reset(toForm(settings.defaultBotRiskLimits));
  }, [settings.defaultBotRiskLimits, reset, form.formState.isDirty]);

  const submit = async (limits: BotRiskLimits) => {
    setSaved(false);
    try {
      await onSave(limits);
      reset(toForm(limits));
      setSaved(true);
    } catch (err) {
      form.setError('root', { message: failureText(err, 'The default limits could not be saved') });
    }
  };

  return (
    <Form form={form} onSubmit={submit} aria-label="Default bot limits">
      <OptionalNumberFields<BotRiskLimitsFormValues> fields={FIELDS} className="ac:sm:grid-cols-3" />
      <FormMessage />
      <SubmitRow submitting={form.formState.isSubmitting} label="Save default limits" busyLabel="Saving…">
        {saved ? (
          <DoneNote>Default limits saved</DoneNote>
        ) : (
          settings.updatedAt !== null && (
            <span className="ac:text-xs ac:text-muted-foreground">
              Last changed {formatDateTime(settings.updatedAt)} UTC
            </span>
          )
        )}
      </SubmitRow>
    </Form>
  );
}
