import { zodResolver } from '@hookform/resolvers/zod';
import {
  type AgentLlmStatus,
  type PutAgentLlmSettingsInput,
  PutAgentLlmSettingsSchema,
} from '@kestrel/contracts/agents';
import { Button, Field, formatDateTime, formatInteger, Input } from '@kestrel/ui';
import { type ComponentProps, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { denseField, fieldMessage } from '../../../components/form-controls';
import { useSaveAgentLlm } from '../api/agent-llm-api';

/** The form's values: the contract's rules, the key empty to keep the stored one */
const FormSchema = PutAgentLlmSettingsSchema.extend({
  apiKey: z.string().max(512, 'apiKey must be at most 512 characters'),
});
type FormValues = z.input<typeof FormSchema>;
type FormOutput = z.output<typeof FormSchema>;

/** "12 calls · 8,410 tokens · 0.03" today, against the caps */
export function llmSpendText(llm: AgentLlmStatus | undefined): string | null {
  if (!llm) return null;
  if (!llm.settings) return 'No LLM';
  const u = llm.usage;
  const spend = u.spend > 0 ? ` · ${u.spend.toFixed(2)} spent` : '';
  return `${formatInteger(u.calls)} calls · ${formatInteger(u.tokens)} tokens${spend}`;
}

/** A price per million tokens: any decimal (it only shows the spend) */
function PriceInput(props: ComponentProps<typeof Input>) {
  return <Input type="number" inputMode="decimal" step="any" {...props} />;
}

function SettingsForm({
  agentId,
  llm,
  onDone,
}: {
  agentId: string;
  llm: AgentLlmStatus;
  onDone: () => void;
}) {
  const save = useSaveAgentLlm(agentId);
  const s = llm.settings;
  const form = useForm<FormValues, unknown, FormOutput>({
    resolver: zodResolver(FormSchema),
    mode: 'onTouched',
    defaultValues: {
      baseUrl: s?.baseUrl ?? '',
      model: s?.model ?? '',
      apiKey: '',
      dailyCallCap: s?.dailyCallCap ?? 200,
      dailyTokenCap: s?.dailyTokenCap ?? 400_000,
      timeoutMs: s?.timeoutMs ?? 15_000,
      promptPricePerMillion: s?.promptPricePerMillion ?? 0,
      completionPricePerMillion: s?.completionPricePerMillion ?? 0,
    },
  });
  const { register, formState, handleSubmit } = form;
  const errors = formState.errors;
  const [refusal, setRefusal] = useState<string | null>(null);
  const submit = handleSubmit(async ({ apiKey, ...rest }) => {
    setRefusal(null);
    const request: PutAgentLlmSettingsInput = {
      ...rest,
      ...(apiKey.trim() ? { apiKey: apiKey.trim() } : {}),
    };
    try {
      await save.mutateAsync(request);
      onDone();
    } catch (error) {
      setRefusal(error instanceof Error ? error.message : String(error));
    }
  });
  const numeric = { valueAsNumber: true } as const;
  return (
    <form
      aria-label="LLM reviewer settings"
      onSubmit={submit}
      noValidate
      className="bt:flex bt:flex-col bt:gap-4"
    >
      <div className="bt:grid bt:grid-cols-1 bt:gap-4 bt:sm:grid-cols-2">
        <Field
          {...denseField}
          label="Base URL"
          hint="OpenAI-compatible, e.g. https://api.openai.com/v1"
          error={fieldMessage(errors.baseUrl)}
        >
          {(control) => <Input {...control} type="url" autoComplete="off" {...register('baseUrl')} />}
        </Field>
        <Field
          {...denseField}
          label="Model"
          hint="e.g. gpt-4o-mini, llama3.1"
          error={fieldMessage(errors.model)}
        >
          {(control) => <Input {...control} autoComplete="off" {...register('model')} />}
        </Field>
        <Field
          {...denseField}
          label="API key"
          hint={
            s?.apiKeyMasked
              ? `Stored: ${s.apiKeyMasked}. Leave empty to keep it.`
              : 'Stored sealed; never shown again. Ollama needs none.'
          }
          error={fieldMessage(errors.apiKey)}
        >
          {(control) => (
            <Input {...control} type="password" autoComplete="new-password" {...register('apiKey')} />
          )}
        </Field>
        <Field
          {...denseField}
          label="Timeout (ms)"
          hint="past it the entry is vetoed"
          error={fieldMessage(errors.timeoutMs)}
        >
          {(control) => (
            <Input {...control} type="number" inputMode="numeric" {...register('timeoutMs', numeric)} />
          )}
        </Field>
        <Field {...denseField} label="Calls per day" error={fieldMessage(errors.dailyCallCap)}>
          {(control) => (
            <Input {...control} type="number" inputMode="numeric" {...register('dailyCallCap', numeric)} />
          )}
        </Field>
        <Field {...denseField} label="Tokens per day" error={fieldMessage(errors.dailyTokenCap)}>
          {(control) => (
            <Input {...control} type="number" inputMode="numeric" {...register('dailyTokenCap', numeric)} />
          )}
        </Field>
        <Field
          {...denseField}
          label="Prompt price per million tokens"
          hint="only to show spend"
          error={fieldMessage(errors.promptPricePerMillion)}
        >
          {(control) => <PriceInput {...control} {...register('promptPricePerMillion', numeric)} />}
        </Field>
        <Field
          {...denseField}
          label="Completion price per million tokens"
          error={fieldMessage(errors.completionPricePerMillion)}
        >
          {(control) => <PriceInput {...control} {...register('completionPricePerMillion', numeric)} />}
        </Field>
      </div>
      {refusal && (
        <p role="alert" className="bt:text-sm bt:text-destructive">
          {refusal}
        </p>
      )}
      <div className="bt:flex bt:flex-wrap bt:gap-2">
        <Button type="submit" size="sm" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save reviewer'}
        </Button>
        <Button type="button" size="sm" variant="outline" disabled={save.isPending} onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/**
 * The optional LLM reviewer: none by default (the agent decides alone); once set, it may approve, shrink or veto
 * entries, never exits. Today's use against the caps; the key is write-only
 */
export function LlmSettingsView({ agentId, llm }: { agentId: string; llm: AgentLlmStatus }) {
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const save = useSaveAgentLlm(agentId);
  const s = llm.settings;
  if (editing) return <SettingsForm agentId={agentId} llm={llm} onDone={() => setEditing(false)} />;
  const remove = async () => {
    setError(null);
    try {
      await save.mutateAsync(null);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    }
  };
  return (
    <div className="bt:flex bt:flex-col bt:gap-3 bt:text-sm">
      {s ? (
        <>
          <dl className="bt:grid bt:grid-cols-1 bt:gap-x-6 bt:gap-y-1 bt:sm:grid-cols-[auto_1fr]">
            <dt className="bt:text-muted-foreground">Endpoint</dt>
            <dd className="bt:break-all">
              {s.model} at {s.baseUrl}
            </dd>
            <dt className="bt:text-muted-foreground">Key</dt>
            <dd className="bt:font-mono">{s.apiKeyMasked ?? 'none'}</dd>
            <dt className="bt:text-muted-foreground">Today ({llm.usage.day})</dt>
            <dd>
              {formatInteger(llm.usage.calls)} of {formatInteger(s.dailyCallCap)} calls ·{' '}
              {formatInteger(llm.usage.tokens)} of {formatInteger(s.dailyTokenCap)} tokens
              {llm.usage.spend > 0 ? ` · ${llm.usage.spend.toFixed(2)} spent` : ''}
              {llm.usage.capped > 0 ? ` · ${llm.usage.capped} vetoed by a cap` : ''}
            </dd>
            <dt className="bt:text-muted-foreground">Timeout</dt>
            <dd>
              {formatInteger(s.timeoutMs)} ms · saved {formatDateTime(s.updatedAt)} UTC
            </dd>
          </dl>
          <div className="bt:flex bt:flex-wrap bt:gap-2">
            <Button size="sm" variant="outline" onClick={() => setEditing(true)}>
              Change reviewer
            </Button>
            <Button size="sm" variant="outline" disabled={save.isPending} onClick={() => void remove()}>
              Remove reviewer
            </Button>
          </div>
        </>
      ) : (
        <div className="bt:flex bt:flex-wrap bt:items-center bt:gap-3">
          <p className="bt:text-muted-foreground">
            None: the agent decides alone (the default). A reviewer may approve, shrink or veto entries, never
            exits; a failed or late answer vetoes the entry.
          </p>
          <Button size="sm" variant="outline" onClick={() => setEditing(true)}>
            Set up a reviewer
          </Button>
        </div>
      )}
      {error && (
        <p role="alert" className="bt:text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}
