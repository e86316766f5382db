import { Button } from '@kestrel/ui';
import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { useBellNotifications } from './notifications-api';

// The list, its filters and grouping load with the first opening, not with every page
const NotificationPanel = lazy(() => import('./notification-panel'));

/** The count as the badge writes it */
const badgeText = (unread: number) => (unread > 99 ? '99+' : String(unread));

/**
 * The top bar's bell: the unread count at a glance on every signed-in page, live (the server pushes each new
 * notice); pressed, the newest notices, grouped and filterable, to read and mark read. Escape or a press outside
 * closes it and gives the focus back to the bell
 */
export function NotificationBell() {
  const list = useBellNotifications();
  const [open, setOpen] = useState(false);
  // On a phone the panel spans the screen under the top bar (the bell is not at the screen's edge): its top, px
  const [phoneTop, setPhoneTop] = useState<number | null>(null);
  const panelId = useId();
  const wrapper = useRef<HTMLDivElement>(null);
  const bell = useRef<HTMLButtonElement>(null);
  const unread = list.data?.unread ?? 0;

  useEffect(() => {
    if (!open) return;
    const close = (focusBell: boolean) => {
      setOpen(false);
      if (focusBell) bell.current?.focus();
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') close(true);
    };
    const onPointer = (e: PointerEvent) => {
      if (!wrapper.current?.contains(e.target as Node)) close(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open]);

  return (
    <div ref={wrapper} className="sh:relative">
      <Button
        ref={bell}
        variant="ghost"
        size="icon"
        aria-label={unread > 0 ? `Notifications, ${unread} unread` : 'Notifications'}
        title="Notifications"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => {
          const narrow = !window.matchMedia('(min-width: 48rem)').matches;
          setPhoneTop(narrow ? (bell.current?.getBoundingClientRect().bottom ?? 0) + 8 : null);
          setOpen((o) => !o);
        }}
        className="sh:relative"
      >
        <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
          <path d="M6 8a6 6 0 1 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
          <path d="M10.3 21a1.9 1.9 0 0 0 3.4 0" />
        </svg>
        {unread > 0 && (
          <span
            aria-hidden="true"
            data-testid="unread-badge"
            className="sh:absolute sh:-top-0.5 sh:-right-0.5 sh:min-w-4 sh:rounded-full sh:bg-destructive sh:px-1 sh:text-center sh:text-[0.625rem] sh:font-semibold sh:leading-4 sh:text-destructive-foreground"
          >
            {badgeText(unread)}
          </span>
        )}
      </Button>
      {open && (
        <div
          id={panelId}
          style={phoneTop === null ? undefined : { top: phoneTop }}
          className={`sh:z-40 sh:rounded-lg sh:border sh:border-border sh:bg-popover sh:text-popover-foreground sh:shadow-lg ${
            phoneTop === null
              ? 'sh:absolute sh:top-full sh:right-0 sh:mt-2 sh:w-[24rem]'
              : 'sh:fixed sh:inset-x-4'
          }`}
        >
          <Suspense
            fallback={<p className="sh:p-4 sh:text-sm sh:text-muted-foreground">Loading notifications…</p>}
          >
            <NotificationPanel list={list} onNavigate={() => setOpen(false)} />
          </Suspense>
        </div>
      )}
    </div>
  );
}
