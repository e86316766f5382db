import {
  TELEGRAM_EVENTS,
  type TelegramChat,
  type TelegramEvent,
  type TelegramLinkCode,
} from '@kestrel/contracts/account';
import { Badge, Button, formatDateTime } from '@kestrel/ui';
import { ConfirmDialog } from '@kestrel/ui/dialog';
import { PanelFailure, PanelLoading } from '@kestrel/ui/panel';
import { type FormEvent, useEffect, useState } from 'react';
import { DoneNote, FailureLine, SubmitRow } from '../../../components/form-parts';
import { failureText } from '../../../lib/failure-text';
import {
  LINK_POLL_MS,
  useCreateTelegramLinkCode,
  useTelegram,
  useTelegramCommands,
  useUnlinkTelegram,
  useUpdateTelegramEvents,
} from '../api/telegram-api';
import { EventChoices } from './event-choices';

/** How many of the chat's last commands the card shows */
export const COMMANDS_SHOWN = 5;

const COMMANDS_HELP = '/status, /profit, /bots, /stop <bot>, /kill, /help';

/** The wall clock, read again every second while `on` (a code's countdown) */
function useNow(on: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!on) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, [on]);
  return now;
}

/** "9:05": minutes and seconds left */
function countdown(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1_000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** The code to send, the deep link, and how long it lasts; the status is asked again meanwhile (the card's part) */
function LinkCodeShown({
  code,
  now,
  onNewCode,
  onCancel,
  busy,
}: {
  code: TelegramLinkCode;
  now: number;
  onNewCode: () => void;
  onCancel: () => void;
  busy: boolean;
}) {
  const left = code.expiresAt - now;
  const expired = left <= 0;
  return (
    <section
      aria-label="Link code"
      className="ac:flex ac:min-w-0 ac:flex-col ac:gap-2 ac:rounded-lg ac:border ac:border-border ac:bg-muted ac:p-3 ac:text-sm"
    >
      {expired ? (
        <p className="ac:font-medium ac:text-destructive">This code has expired: get a new one.</p>
      ) : (
        <>
          <p className="ac:font-medium">Your one-time code</p>
          <code
            data-testid="telegram-link-code"
            className="ac:w-fit ac:rounded-md ac:bg-background ac:px-2 ac:py-1 ac:font-mono ac:text-lg ac:tracking-widest"
          >
            {code.code}
          </code>
          <p>
            <a
              href={code.deepLink}
              target="_blank"
              rel="noreferrer"
              className="ac:font-medium ac:text-primary ac:underline ac:underline-offset-2"
            >
              Open in Telegram
            </a>
            <span className="ac:block ac:break-all ac:font-mono ac:text-xs ac:text-muted-foreground">
              {code.deepLink}
            </span>
          </p>
          <p>
            or send <code className="ac:break-all ac:font-mono">/start {code.code}</code> to{' '}
            <span className="ac:font-medium">@{code.botUsername}</span> from the chat to link.
          </p>
          <p className="ac:text-muted-foreground">
            Expires in <span data-testid="telegram-code-countdown">{countdown(left)}</span> (at{' '}
            {formatDateTime(code.expiresAt)} UTC). This card turns linked by itself once the bot has the code.
          </p>
        </>
      )}
      <div className="ac:flex ac:flex-wrap ac:gap-2">
        <Button size="sm" variant={expired ? 'default' : 'outline'} disabled={busy} onClick={onNewCode}>
          {busy ? 'Getting a code…' : 'Get a new code'}
        </Button>
        <Button size="sm" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </section>
  );
}

/** The events the chat is told about, saved with PUT; the contract's labels */
function EventsForm({ chat }: { chat: TelegramChat }) {
  const save = useUpdateTelegramEvents();
  const [events, setEvents] = useState<TelegramEvent[]>(chat.events);
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setDone(false);
    setError(null);
    try {
      await save.mutateAsync(TELEGRAM_EVENTS.filter((x) => events.includes(x)));
      setDone(true);
    } catch (err) {
      setError(failureText(err, 'The events were not saved'));
    }
  };
  return (
    <form onSubmit={submit} aria-label="Telegram events" className="ac:flex ac:flex-col ac:gap-3" noValidate>
      <EventChoices
        legend="Tell this chat about"
        events={TELEGRAM_EVENTS}
        chosen={events}
        onChange={(next) => {
          setDone(false);
          setEvents(next);
        }}
      />
      <FailureLine message={error} />
      <SubmitRow submitting={save.isPending} label="Save events" busyLabel="Saving…">
        {done && <DoneNote>Events saved</DoneNote>}
      </SubmitRow>
    </form>
  );
}

/** The chat's last commands and the bot's answers, newest first */
function CommandRecord({ botUsername }: { botUsername: string | undefined }) {
  const commands = useTelegramCommands(COMMANDS_SHOWN, true);
  return (
    <section aria-labelledby="telegram-commands" className="ac:flex ac:min-w-0 ac:flex-col ac:gap-2">
      <h3 id="telegram-commands" className="ac:text-sm ac:font-medium">
        Last commands
      </h3>
      {commands.isPending ? (
        <PanelLoading label="Loading the chat's commands…" />
      ) : !commands.data ? (
        <PanelFailure
          what="The chat's commands"
          message={commands.error?.message ?? 'no answer'}
          onRetry={() => void commands.refetch()}
        />
      ) : commands.data.length === 0 ? (
        <p className="ac:text-sm ac:text-muted-foreground">
          None yet: send /help to {botUsername ? `@${botUsername}` : 'the bot'} for what it answers.
        </p>
      ) : (
        <ul aria-label="Telegram commands" className="ac:flex ac:flex-col ac:divide-y ac:divide-border">
          {commands.data.map((c) => (
            <li key={`${c.at}-${c.command}`} className="ac:flex ac:min-w-0 ac:flex-col ac:gap-1 ac:py-2">
              <div className="ac:flex ac:flex-wrap ac:items-baseline ac:gap-x-3 ac:gap-y-0.5">
                <code className="ac:break-all ac:font-mono ac:text-sm ac:font-medium">{c.command}</code>
                <span className="ac:text-xs ac:text-muted-foreground">{formatDateTime(c.at)} UTC</span>
              </div>
              <p className="ac:whitespace-pre-line ac:break-words ac:text-xs ac:text-muted-foreground">
                {c.answer}
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function LinkedChat({ chat, botUsername }: { chat: TelegramChat; botUsername: string | undefined }) {
  const unlink = useUnlinkTelegram();
  const [confirming, setConfirming] = useState(false);
  const who = chat.username ? `@${chat.username}` : 'A chat without a user name';
  return (
    <div className="ac:flex ac:min-w-0 ac:flex-col ac:gap-4">
      <div className="ac:flex ac:flex-wrap ac:items-center ac:justify-between ac:gap-2">
        <p className="ac:flex ac:min-w-0 ac:flex-wrap ac:items-center ac:gap-2 ac:text-sm">
          <Badge variant="success">Linked</Badge>
          <span data-testid="telegram-chat" className="ac:break-all ac:font-medium">
            {who}
          </span>
          <span className="ac:text-muted-foreground">since {formatDateTime(chat.linkedAt)} UTC</span>
        </p>
        <Button size="sm" variant="outline" onClick={() => setConfirming(true)}>
          Unlink
        </Button>
      </div>
      <p className="ac:text-xs ac:text-muted-foreground">
        The chat can send {COMMANDS_HELP}
        {botUsername ? ` to @${botUsername}` : ''}; /kill asks for /kill confirm first.
      </p>
      <EventsForm key={chat.linkedAt} chat={chat} />
      <CommandRecord botUsername={botUsername} />
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Unlink the Telegram chat?"
        description={`${who} is told nothing more, and its commands (the kill switch too) are refused. A new code links a chat again.`}
        confirmLabel="Unlink"
        pendingLabel="Unlinking…"
        destructive
        onConfirm={() => unlink.mutateAsync(undefined)}
      />
    </div>
  );
}

/**
 * The account page's Telegram card: the operator's bot tells the linked chat about the events chosen and takes commands
 * from it. Not configured (no bot on the server), not linked (a one-time code, the status asked again until the
 * chat sends it), linked (events, unlink, the last commands)
 */
export function TelegramCard() {
  const [code, setCode] = useState<TelegramLinkCode | null>(null);
  const now = useNow(code !== null);
  const waiting = code !== null && code.expiresAt > now;
  const telegram = useTelegram(waiting ? LINK_POLL_MS : false);
  const create = useCreateTelegramLinkCode();
  const [error, setError] = useState<string | null>(null);
  const linked = telegram.data?.chat != null;

  // Linked from the phone: the code is used, stop asking
  useEffect(() => {
    if (linked) setCode(null);
  }, [linked]);

  const newCode = async () => {
    setError(null);
    try {
      setCode(await create.mutateAsync(undefined));
    } catch (err) {
      setError(failureText(err, 'No code: try again'));
    }
  };

  if (telegram.isPending) return <PanelLoading label="Loading your Telegram link…" />;
  if (!telegram.data)
    return (
      <PanelFailure
        what="Your Telegram link"
        message={telegram.error?.message ?? 'no answer'}
        onRetry={() => void telegram.refetch()}
      />
    );
  const { enabled, botUsername, chat } = telegram.data;
  if (!enabled)
    return (
      <p className="ac:text-sm ac:text-muted-foreground">
        Telegram is not available: the operator of this Kestrel server has not set up a Telegram bot (the{' '}
        <code className="ac:break-all ac:font-mono ac:text-xs">KESTREL_TELEGRAM_BOT_TOKEN</code> setting).
      </p>
    );
  if (chat) return <LinkedChat chat={chat} botUsername={botUsername} />;
  return (
    <div className="ac:flex ac:min-w-0 ac:flex-col ac:gap-3">
      <p className="ac:text-sm">
        No chat linked. Link one to hear about the events you choose and to send {COMMANDS_HELP}
        {botUsername ? ` to @${botUsername}` : ''} from your phone.
      </p>
      {code ? (
        <LinkCodeShown
          code={code}
          now={now}
          busy={create.isPending}
          onNewCode={() => void newCode()}
          onCancel={() => setCode(null)}
        />
      ) : (
        <div>
          <Button disabled={create.isPending} onClick={() => void newCode()}>
            {create.isPending ? 'Getting a code…' : 'Link a chat'}
          </Button>
        </div>
      )}
      <FailureLine message={error} />
    </div>
  );
}
