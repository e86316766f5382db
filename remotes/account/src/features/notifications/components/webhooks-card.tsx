import {
  type CreatedWebhook,
  CreateWebhookRequestSchema,
  NOTIFICATION_EVENT_LABELS,
  WEBHOOK_EVENTS,
  type Webhook,
  type WebhookDelivery,
  type WebhookEvent,
} from '@kestrel/contracts/account';
import { Badge, Button, Field, formatDateTime, Input } from '@kestrel/ui';
import { PanelFailure, PanelLoading } from '@kestrel/ui/panel';
import { type FormEvent, useState } from 'react';
import { FailureLine } from '../../../components/form-parts';
import { failureText } from '../../../lib/failure-text';
import {
  useCreateWebhook,
  useDeleteWebhook,
  useSendTest,
  useWebhookDeliveries,
  useWebhooks,
} from '../api/notifications-api';
import { EventChoices } from './event-choices';

function DeliveryBadge({ d }: { d: WebhookDelivery | null }) {
  if (!d) return <Badge variant="outline">No deliveries yet</Badge>;
  const code = d.statusCode === null ? '' : ` ${d.statusCode}`;
  if (d.status === 'delivered') return <Badge variant="success">Delivered{code}</Badge>;
  if (d.status === 'pending') return <Badge variant="warning">Retrying{code}</Badge>;
  return <Badge variant="destructive">Failed{code}</Badge>;
}

/** Add a webhook: URL and events, checked with the contract before sending; the server's refusal shown as is */
function AddWebhook({ onCreated }: { onCreated: (w: CreatedWebhook) => void }) {
  const create = useCreateWebhook();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEvent[]>(['kill_switch']);
  const [errors, setErrors] = useState<{ url?: string; events?: string; root?: string }>({});

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = CreateWebhookRequestSchema.safeParse({ url, events });
    if (!parsed.success) {
      const next: typeof errors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] === 'url' ? 'url' : 'events';
        next[field] ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    try {
      onCreated(await create.mutateAsync(parsed.data));
      setUrl('');
    } catch (err) {
      setErrors({ root: failureText(err, 'The webhook could not be added') });
    }
  };

  return (
    <form onSubmit={submit} aria-label="Add a webhook" className="ac:flex ac:flex-col ac:gap-3" noValidate>
      <Field label="Webhook URL" hint="https:// address that receives a signed POST" error={errors.url}>
        {(control) => (
          <Input
            {...control}
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            inputMode="url"
            autoComplete="off"
            placeholder="https://example.com/kestrel"
          />
        )}
      </Field>
      <EventChoices legend="Events" events={WEBHOOK_EVENTS} chosen={events} onChange={setEvents}>
        <FailureLine message={errors.events} />
      </EventChoices>
      <FailureLine message={errors.root} />
      <div>
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? 'Adding…' : 'Add webhook'}
        </Button>
      </div>
    </form>
  );
}

/** The secret, shown once right after creation, with a copy button */
function SecretOnce({ created, onDone }: { created: CreatedWebhook; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <div
      role="status"
      className="ac:flex ac:flex-col ac:gap-2 ac:rounded-lg ac:border ac:border-warning ac:bg-muted ac:p-3 ac:text-sm"
    >
      <p className="ac:font-medium">Signing secret: copy it now, it is not shown again</p>
      <code data-testid="webhook-secret" className="ac:break-all ac:font-mono ac:text-xs">
        {created.secret}
      </code>
      <p className="ac:text-muted-foreground">
        Check each delivery: HMAC-SHA256 of “X-Kestrel-Timestamp.body” with this secret must equal the hex
        after “sha256=” in X-Kestrel-Signature.
      </p>
      <div className="ac:flex ac:flex-wrap ac:gap-2">
        <Button
          size="sm"
          variant="outline"
          onClick={() =>
            void navigator.clipboard.writeText(created.secret).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {copied ? 'Copied' : 'Copy secret'}
        </Button>
        <Button size="sm" variant="ghost" onClick={onDone}>
          I have stored it
        </Button>
      </div>
    </div>
  );
}

function DeliveryLog({ id }: { id: string }) {
  const log = useWebhookDeliveries(id, true);
  if (log.isPending) return <PanelLoading label="Loading deliveries…" />;
  if (!log.data)
    return (
      <PanelFailure
        what="The delivery log"
        message={log.error?.message ?? 'no answer'}
        onRetry={() => void log.refetch()}
      />
    );
  if (log.data.length === 0) return <p className="ac:text-sm ac:text-muted-foreground">Nothing sent yet.</p>;
  return (
    <ul aria-label="Delivery log" className="ac:flex ac:flex-col ac:gap-1 ac:text-xs">
      {log.data.map((d) => (
        <li key={d.id} className="ac:flex ac:flex-wrap ac:items-center ac:gap-x-3 ac:gap-y-1">
          <DeliveryBadge d={d} />
          <span>{NOTIFICATION_EVENT_LABELS[d.event]}</span>
          <span className="ac:text-muted-foreground">
            {d.lastAttemptAt === null ? 'not tried yet' : `${formatDateTime(d.lastAttemptAt)} UTC`}
          </span>
          {d.durationMs !== null && <span className="ac:text-muted-foreground">{d.durationMs} ms</span>}
          <span className="ac:text-muted-foreground">
            {d.attempts} {d.attempts === 1 ? 'try' : 'tries'}
          </span>
          {d.error && <span className="ac:text-destructive">{d.error}</span>}
        </li>
      ))}
    </ul>
  );
}

function WebhookRow({ hook }: { hook: Webhook }) {
  const test = useSendTest();
  const remove = useDeleteWebhook();
  const [showLog, setShowLog] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <li className="ac:flex ac:flex-col ac:gap-2 ac:rounded-lg ac:border ac:border-border ac:p-3">
      <div className="ac:flex ac:flex-wrap ac:items-center ac:gap-2">
        <span className="ac:min-w-0 ac:break-all ac:font-mono ac:text-sm">{hook.url}</span>
        <DeliveryBadge d={hook.lastDelivery} />
      </div>
      <p className="ac:text-xs ac:text-muted-foreground">
        {hook.events.map((e) => NOTIFICATION_EVENT_LABELS[e]).join(', ')}
      </p>
      <div className="ac:flex ac:flex-wrap ac:gap-2">
        <Button
          size="sm"
          variant="outline"
          disabled={test.isPending}
          onClick={() => {
            setError(null);
            test
              .mutateAsync(hook.id)
              .catch((err: unknown) => setError(failureText(err, 'The test was not sent')));
          }}
        >
          {test.isPending ? 'Sending…' : 'Send test'}
        </Button>
        <Button size="sm" variant="ghost" onClick={() => setShowLog((v) => !v)} aria-expanded={showLog}>
          {showLog ? 'Hide delivery log' : 'Delivery log'}
        </Button>
        <Button
          size="sm"
          variant="destructive"
          disabled={remove.isPending}
          onClick={() => {
            if (!window.confirm(`Delete the webhook to ${hook.url}?`)) return;
            remove.mutateAsync(hook.id).catch((err: unknown) => setError(failureText(err, 'Not deleted')));
          }}
        >
          Delete
        </Button>
      </div>
      <FailureLine message={error} />
      {showLog && <DeliveryLog id={hook.id} />}
    </li>
  );
}

/** Settings' notifications card: webhooks with their last delivery, send test, delete, the delivery log */
export function WebhooksCard() {
  const hooks = useWebhooks();
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  return (
    <div className="ac:flex ac:flex-col ac:gap-4">
      {created && <SecretOnce created={created} onDone={() => setCreated(null)} />}
      {hooks.isPending ? (
        <PanelLoading label="Loading your webhooks…" />
      ) : !hooks.data ? (
        <PanelFailure
          what="Your webhooks"
          message={hooks.error?.message ?? 'no answer'}
          onRetry={() => void hooks.refetch()}
        />
      ) : hooks.data.length === 0 ? (
        <p className="ac:text-sm ac:text-muted-foreground">No webhooks yet.</p>
      ) : (
        <ul aria-label="Webhooks" className="ac:flex ac:flex-col ac:gap-2">
          {hooks.data.map((h) => (
            <WebhookRow key={h.id} hook={h} />
          ))}
        </ul>
      )}
      <AddWebhook onCreated={setCreated} />
    </div>
  );
}
