import type { Theme } from '@kestrel/shared-runtime';
import { getKestrelRuntime, type Notification, type ToastMessage } from '@kestrel/shared-runtime';
import { type ComponentProps, type ComponentType, lazy, Suspense, useEffect, useState } from 'react';
import type { Observable } from 'rxjs';
import { holdFeed } from './held-feed';
import type * as NoticeAreasModule from './notices';

/**
 * The notice areas' code (sonner, Radix toast) is ~20 KB gzip that most visits to the public pages never use: it
 * loads with the first message instead of with the page. A failed load costs the notices, not the page.
 */
const NoticeAreas = lazy<ComponentType<ComponentProps<typeof NoticeAreasModule.NoticeAreas>>>(() =>
  import('./notices').then(
    (m) => ({ default: m.NoticeAreas }),
    (error: unknown) => {
      console.error('The notification areas could not load', error);
      return { default: () => null };
    },
  ),
);

type Feeds = { notifications$: Observable<Notification>; toasts$: Observable<ToastMessage> };

/** Both toast types, mounted with the first message from either feed; messages sent meanwhile are kept */
export function LazyNotices({ theme, notifications$, toasts$ }: Feeds & { theme: Theme }) {
  const [feeds, setFeeds] = useState<Feeds | null>(null);
  useEffect(() => {
    const notifications = holdFeed(notifications$);
    const toasts = holdFeed(toasts$);
    let mounted = true;
    void Promise.race([notifications.arrived, toasts.arrived]).then(() => {
      if (mounted) setFeeds({ notifications$: notifications.feed$, toasts$: toasts.feed$ });
    });
    return () => {
      mounted = false;
      notifications.stop();
      toasts.stop();
    };
  }, [notifications$, toasts$]);
  if (!feeds) return null;
  return (
    <Suspense fallback={null}>
      <NoticeAreas theme={theme} {...feeds} />
    </Suspense>
  );
}

/** Fed by the page's runtime, so a remote's `runtime.notices` calls land here */
export function RuntimeNotices({ theme }: { theme: Theme }) {
  const runtime = getKestrelRuntime();
  return <LazyNotices theme={theme} notifications$={runtime.notifications$} toasts$={runtime.toasts$} />;
}
