import {
  type Bot,
  SIGNAL_SIGNATURE_HEADER,
  SIGNAL_WINDOW_MS,
  SIGNALS_PER_MINUTE,
  type SignalHook,
  type SignalRecord,
} from '@kestrel/contracts/bots';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { Badge, Button, cn, formatDateTime } from '@kestrel/ui';
import { QueryState } from '@kestrel/ui/panel';
import { type RefObject, useEffect, useId, useRef, useState } from 'react';
import { ConfirmCommand } from '../../../components/confirm-command';
import { useCreateSignalHook } from '../api/create-signal-hook';
import { useDeleteSignalHook } from '../api/delete-signal-hook';
import { useBotSignals } from '../api/get-bot-signals';
import { useSignalHook } from '../api/get-signal-hook';
import {
  alertMessage,
  hookUrl,
  hookWords,
  OUTCOME_BADGES,
  OUTCOME_LABELS,
  reachNote,
  signalWhat,
} from '../lib/signal-words';

/** A hook just made or replaced, with its secret: kept in this card's state only, never in the query cache */
type Made = { hook: SignalHook; secret: string };

type CopyState = 'idle' | 'copied' | 'selected';

/**
 * Copies `text`; where the page has no clipboard (served over plain HTTP at a LAN address, not a secure context) it
 * selects the shown value instead, for Ctrl+C
 */
function CopyButton({
  text,
  what,
  target,
}: {
  text: string;
  what: string;
  target: RefObject<HTMLElement | null>;
}) {
  const [state, setState] = useState<CopyState>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 2_500);
    return () => clearTimeout(timer);
  }, [state]);
  const selectShown = () => {
    const node = target.current;
    const selection = globalThis.getSelection?.();
    if (node && selection) {
      const range = document.createRange();
      range.selectNodeContents(node);
      selection.removeAllRanges();
      selection.addRange(range);
    }
    setState('selected');
  };
  const copy = () => {
    const clipboard = globalThis.navigator?.clipboard;
    if (!clipboard) return selectShown();
    clipboard.writeText(text).then(() => setState('copied'), selectShown);
  };
  const label = state === 'copied' ? 'Copied' : state === 'selected' ? 'Selected: press Ctrl+C' : 'Copy';
  return (
    // The visible words begin the accessible name (WCAG 2.5.3)
    <Button size="sm" variant="outline" aria-label={`${label} ${what}`} onClick={copy}>
      <span aria-live="polite">{label}</span>
    </Button>
  );
}

/** A value to paste elsewhere (URL, secret, message), named by its label, wrapped at any character on a phone */
function Copyable({ label, value, block = false }: { label: string; value: string; block?: boolean }) {
  const id = useId();
  const shown = useRef<HTMLElement>(null);
  const value_ =
    'bt:min-w-0 bt:break-all bt:rounded-md bt:bg-muted bt:px-2 bt:py-1.5 bt:font-mono bt:text-xs';
  return (
    // biome-ignore lint/a11y/useSemanticElements: a value and its Copy button, not form fields: no fieldset and legend
    <div role="group" aria-labelledby={id} className="bt:flex bt:min-w-0 bt:flex-col bt:gap-1">
      <div className="bt:flex bt:items-center bt:justify-between bt:gap-2">
        <span id={id} className="bt:text-xs bt:font-medium bt:text-muted-foreground">
          {label}
        </span>
        <CopyButton text={value} what={label.charAt(0).toLowerCase() + label.slice(1)} target={shown} />
      </div>
      {block ? (
        <pre ref={shown as RefObject<HTMLPreElement>} className={cn(value_, 'bt:m-0 bt:whitespace-pre-wrap')}>
          {value}
        </pre>
      ) : (
        <code ref={shown} className={value_}>
          {value}
        </code>
      )}
    </div>
  );
}

/** How a sender that can sign proves the alert is the owner's, and the rules every signal meets */
function SigningDetails() {
  return (
    <details className="bt:text-sm">
      <summary className="bt:cursor-pointer bt:font-medium">
        Sign the alerts instead of sending the secret
      </summary>
      <div className="bt:mt-2 bt:flex bt:flex-col bt:gap-2 bt:text-muted-foreground">
        <p>
          A sender that can sign leaves <code className="bt:font-mono">secret</code> out of the body and sends
          the header{' '}
          <code className="bt:break-all bt:font-mono">{SIGNAL_SIGNATURE_HEADER}: sha256=&lt;hex&gt;</code>,
          the HMAC-SHA256 of the raw body keyed with the secret. TradingView cannot sign: its message carries
          the secret.
        </p>
        <p>
          Each signal's <code className="bt:font-mono">id</code> is acted on once, its{' '}
          <code className="bt:font-mono">time</code> must be within {SIGNAL_WINDOW_MS / 60_000} minutes of the
          server's clock, and at most {SIGNALS_PER_MINUTE} a minute reach the bot.
        </p>
      </div>
    </details>
  );
}

/** The webhook as it is: its URL; right after it was made, its secret and the message to paste, once */
function HookDetails({
  bot,
  hook,
  made,
  takesSignals,
  onMade,
  onRemoved,
}: {
  bot: Bot;
  hook: SignalHook;
  made: Made | null;
  takesSignals: boolean;
  onMade: (made: Made) => void;
  onRemoved: () => void;
}) {
  const { config } = useKestrelRuntime();
  const create = useCreateSignalHook(bot.id);
  const remove = useDeleteSignalHook(bot.id);
  const [asking, setAsking] = useState<'replace' | 'remove' | null>(null);
  const url = hookUrl(config.apiBaseUrl, hook.path);
  const reach = reachNote(url);
  const secret = made?.hook.hookId === hook.hookId ? made.secret : null;

  return (
    <div className="bt:flex bt:min-w-0 bt:flex-col bt:gap-3">
      <Copyable label="Webhook URL" value={url} />
      {reach && <p className="bt:text-xs bt:text-muted-foreground">{reach}</p>}
      {secret !== null ? (
        <>
          <p
            role="note"
            aria-label="The secret is shown once"
            className="bt:rounded-md bt:border bt:border-warning bt:bg-warning/10 bt:px-3 bt:py-2 bt:text-sm"
          >
            <strong>Copy the secret now: it is shown only this once.</strong> Once you leave this page it
            cannot be read again; "Replace URL and secret" makes new ones.
          </p>
          <Copyable label="Secret" value={secret} />
          <Copyable label="Alert message" value={alertMessage(secret, takesSignals)} block />
          <p className="bt:text-xs bt:text-muted-foreground">
            In the TradingView alert, put the URL under Notifications → Webhook URL and this message as the
            alert's message: TradingView fills in the {'{{…}}'} placeholders when it fires.
            {takesSignals ? '' : ' This bot takes start and stop only: the message asks it to stop.'}
          </p>
          <SigningDetails />
        </>
      ) : (
        <p className="bt:text-sm bt:text-muted-foreground">
          The secret is hidden: it was shown once, when this URL was made ({formatDateTime(hook.createdAt)}{' '}
          UTC). Lost it? Replace the URL and secret, then update your alerts.
        </p>
      )}
      <div className="bt:flex bt:flex-wrap bt:gap-2">
        <Button size="sm" variant="outline" onClick={() => setAsking('replace')}>
          Replace URL and secret
        </Button>
        <Button size="sm" variant="outline" onClick={() => setAsking('remove')}>
          Remove webhook
        </Button>
      </div>
      <ConfirmCommand
        words={asking ? hookWords(asking, bot.name) : null}
        onClose={() => setAsking(null)}
        onConfirm={async () => {
          if (asking === 'replace') onMade(await create.mutateAsync());
          else if (asking === 'remove') {
            await remove.mutateAsync();
            onRemoved();
          }
        }}
      />
    </div>
  );
}

/** No webhook yet: what one is, and the button that makes it (a live bot's asks for the password first) */
function NoHook({
  bot,
  takesSignals,
  onMade,
}: {
  bot: Bot;
  takesSignals: boolean;
  onMade: (made: Made) => void;
}) {
  const create = useCreateSignalHook(bot.id);
  return (
    <div className="bt:flex bt:flex-col bt:items-start bt:gap-2 bt:text-sm">
      <p className="bt:text-muted-foreground">
        A webhook is a private URL a charting tool posts its alerts to (a TradingView alert, say):{' '}
        {takesSignals
          ? 'each one tells this bot to buy, sell or close at once, or to start or stop.'
          : 'each one tells this bot to start or stop.'}{' '}
        A secret that comes with it proves the alert is yours.
      </p>
      <Button
        size="sm"
        disabled={create.isPending}
        onClick={() => {
          create.mutateAsync().then(onMade, () => undefined);
        }}
      >
        {create.isPending ? 'Creating…' : 'Create webhook URL'}
      </Button>
      {create.error && (
        <p role="alert" className="bt:text-destructive">
          The webhook could not be made: {create.error.message}
        </p>
      )}
    </div>
  );
}

function SignalLine({ signal }: { signal: SignalRecord }) {
  const orders = signal.orders.length;
  return (
    <li data-outcome={signal.outcome} className="bt:flex bt:min-w-0 bt:flex-col bt:gap-1 bt:py-2 bt:text-sm">
      <div className="bt:flex bt:flex-wrap bt:items-center bt:gap-x-2 bt:gap-y-1">
        {/* Spaces between the parts: a screen reader reads "Acted Buy BTCUSDT", not "ActedBuy" */}
        <Badge variant={OUTCOME_BADGES[signal.outcome]}>{OUTCOME_LABELS[signal.outcome]}</Badge>{' '}
        <span className="bt:font-medium">{signalWhat(signal)}</span>{' '}
        <time
          dateTime={new Date(signal.receivedAt).toISOString()}
          className="bt:text-xs bt:text-muted-foreground bt:tabular-nums"
        >
          {formatDateTime(signal.receivedAt)} UTC
        </time>{' '}
        {orders > 0 && (
          <span className="bt:text-xs bt:text-muted-foreground">
            · {orders} order{orders === 1 ? '' : 's'}
          </span>
        )}
      </div>
      <p
        className={cn(
          'bt:break-words',
          signal.outcome === 'refused' ? 'bt:text-destructive' : 'bt:text-muted-foreground',
        )}
      >
        {signal.message}
      </p>
      {signal.signalId !== null && (
        <p className="bt:break-all bt:text-xs bt:text-muted-foreground">id {signal.signalId}</p>
      )}
    </li>
  );
}

/** The last signals, newest first: read again on each `signal_received` push, and every 5 s while the bot runs */
function SignalList({ bot, takesSignals }: { bot: Bot; takesSignals: boolean }) {
  const signals = useBotSignals(bot.id, { enabled: true, running: bot.state === 'running' });
  return (
    <div className="bt:flex bt:min-w-0 bt:flex-col bt:gap-1">
      <h4 className="bt:text-sm bt:font-medium">Last signals</h4>
      <QueryState
        query={signals}
        what="Its signals"
        loading="Loading its signals…"
        layout="inline"
        isEmpty={(list) => list.length === 0}
        empty={
          <p className="bt:text-sm bt:text-muted-foreground">
            {takesSignals
              ? 'No signal received yet: paste the URL and the message into a TradingView alert.'
              : 'No signal received yet: an alert posting start or stop to the URL shows here.'}
          </p>
        }
      >
        {(list) => (
          <ul
            aria-label={`Signals of ${bot.name}`}
            className="bt:flex bt:flex-col bt:divide-y bt:divide-border"
          >
            {list.map((s) => (
              <SignalLine key={s.id} signal={s} />
            ))}
          </ul>
        )}
      </QueryState>
    </div>
  );
}

export interface BotSignalsProps {
  bot: Bot;
  /** Its strategy trades on signals (webhook-signal): the section is open from the start, buys and sells reach it */
  takesSignals: boolean;
}

/**
 * A bot's Signals section on its card: its webhook (made, replaced, removed; the secret shown once) and the signals
 * it received with what each caused. A webhook-signal bot trades only through it, so there it is open from the
 * start; other bots take start and stop only, offered collapsed
 */
export function BotSignals({ bot, takesSignals }: BotSignalsProps) {
  const [open, setOpen] = useState(takesSignals);
  // Kept here, not in the panel: hiding the section must not lose a secret that is shown only once
  const [made, setMade] = useState<Made | null>(null);
  const hook = useSignalHook(bot.id, open);
  const panelId = useId();
  return (
    <div className="bt:flex bt:min-w-0 bt:flex-col bt:gap-2">
      <div className="bt:flex bt:items-center bt:justify-between bt:gap-2">
        <h3 className="bt:text-sm bt:font-semibold">Signals</h3>
        <Button
          size="sm"
          variant="ghost"
          aria-expanded={open}
          aria-controls={open ? panelId : undefined}
          aria-label={`${open ? 'Hide' : 'Show'} signals of ${bot.name}`}
          onClick={() => setOpen((o) => !o)}
        >
          {open ? 'Hide signals' : 'Show signals'}
        </Button>
      </div>
      <p className="bt:text-sm bt:text-muted-foreground">
        {takesSignals
          ? 'It trades only on the alerts posted to its webhook: buy, sell and close, and start and stop.'
          : 'Its strategy places its own orders: only start and stop alerts reach it through a webhook.'}
      </p>
      {open && (
        <div
          id={panelId}
          className="bt:flex bt:min-w-0 bt:flex-col bt:gap-4 bt:rounded-md bt:border bt:border-border bt:p-3"
        >
          <QueryState
            query={hook}
            what="Its webhook"
            loading="Loading its webhook…"
            layout="inline"
            errorFirst
          >
            {(current) =>
              current === null ? (
                <NoHook bot={bot} takesSignals={takesSignals} onMade={setMade} />
              ) : (
                <HookDetails
                  bot={bot}
                  hook={current}
                  made={made}
                  takesSignals={takesSignals}
                  onMade={setMade}
                  onRemoved={() => setMade(null)}
                />
              )
            }
          </QueryState>
          <SignalList bot={bot} takesSignals={takesSignals} />
        </div>
      )}
    </div>
  );
}
