import type { Notification, Theme, ToastMessage } from '@kestrel/shared-runtime';
import {
  Toast,
  ToastClose,
  ToastDescription,
  ToastProvider,
  ToastTitle,
  ToastViewport,
} from '@kestrel/ui/toast';
import { useEffect, useState } from 'react';
import type { Observable } from 'rxjs';
import { toast as notify, Toaster } from 'sonner';

/**
 * Spec §9 notification area. sonner 1.7's own defaults are the spec's numbers (3 visible, 4000 ms, 356 px wide,
 * 14 px gap, 32 px offset, swipe 20 px, 200 ms removal); the ones it takes as props are set explicitly here so a
 * dependency upgrade cannot move them silently. The tests pin all of them.
 */
export const NOTIFICATION_AREA = {
  visibleToasts: 3,
  durationMs: 4000,
  widthPx: 356,
  gapPx: 14,
  offsetPx: 32,
  position: 'bottom-right',
  hotkey: ['altKey', 'KeyT'],
} as const;

export function NotificationArea({
  theme,
  notifications$,
}: {
  theme: Theme;
  notifications$: Observable<Notification>;
}) {
  useEffect(() => {
    const subscription = notifications$.subscribe((n) => {
      const options = n.description ? { description: n.description } : {};
      if (n.type === 'info') notify.info(n.title, options);
      else notify[n.type](n.title, options);
    });
    return () => subscription.unsubscribe();
  }, [notifications$]);
  return (
    <Toaster
      theme={theme}
      visibleToasts={NOTIFICATION_AREA.visibleToasts}
      duration={NOTIFICATION_AREA.durationMs}
      gap={NOTIFICATION_AREA.gapPx}
      offset={`${NOTIFICATION_AREA.offsetPx}px`}
      position={NOTIFICATION_AREA.position}
      hotkey={[...NOTIFICATION_AREA.hotkey]}
      style={{ '--width': `${NOTIFICATION_AREA.widthPx}px` } as React.CSSProperties}
    />
  );
}

/** Spec §9 second toast type: one at a time (a new one replaces the shown one), default or destructive */
export function SingleToast({ toasts$ }: { toasts$: Observable<ToastMessage> }) {
  const [current, setCurrent] = useState<(ToastMessage & { id: number }) | null>(null);
  useEffect(() => {
    let id = 0;
    const subscription = toasts$.subscribe((message) => {
      id += 1;
      setCurrent({ ...message, id });
    });
    return () => subscription.unsubscribe();
  }, [toasts$]);
  return (
    <ToastProvider>
      {current && (
        <Toast
          key={current.id}
          variant={current.variant}
          onOpenChange={(open) => {
            if (!open) setCurrent((c) => (c?.id === current.id ? null : c));
          }}
        >
          <div className="sh:grid sh:gap-1">
            <ToastTitle>{current.title}</ToastTitle>
            {current.description && <ToastDescription>{current.description}</ToastDescription>}
          </div>
          <ToastClose />
        </Toast>
      )}
      <ToastViewport />
    </ToastProvider>
  );
}

/** Both toast types; loaded with the first message (see `runtime-notices.tsx`) */
export function NoticeAreas({
  theme,
  notifications$,
  toasts$,
}: {
  theme: Theme;
  notifications$: Observable<Notification>;
  toasts$: Observable<ToastMessage>;
}) {
  return (
    <>
      <NotificationArea theme={theme} notifications$={notifications$} />
      <SingleToast toasts$={toasts$} />
    </>
  );
}
