import {
  type ComponentPropsWithoutRef,
  type ComponentType,
  createContext,
  type MouseEvent,
  type Ref,
  useContext,
} from 'react';
import type { ReturnTo } from '../auth/preload-signed-in';

export type LandingLinkProps = { to: string; ref?: Ref<HTMLAnchorElement> } & Omit<
  ComponentPropsWithoutRef<'a'>,
  'href'
>;

/**
 * How the landing page leaves for another page. Inside the router these are the router's (`router.tsx`); on a cold
 * visit to / the landing is rendered without the router (`cold-landing.tsx`), so a visitor who only reads it or signs
 * in does not load react-router first: leaving starts the router at the new address.
 */
export type LandingNavigation = {
  /** Where a signed-out visitor was going when they were sent here (spec §2: back there after sign-in) */
  from: ReturnTo['from'];
  /** Opens `to` in place of the landing page (its history entry is replaced) */
  replaceWith: (to: string) => void;
  /** Opens `to` as a new history entry (a link's plain click) */
  push: (to: string) => void;
  /** A link to another page of the app */
  Link: ComponentType<LandingLinkProps>;
};

/** A plain left click, which a link of the app handles itself (others open a tab or a window, as the browser does) */
export function isPlainLeftClick(event: MouseEvent<HTMLAnchorElement>): boolean {
  const target = event.currentTarget.getAttribute('target');
  return (
    !event.defaultPrevented &&
    event.button === 0 &&
    (!target || target === '_self') &&
    !(event.metaKey || event.altKey || event.ctrlKey || event.shiftKey)
  );
}

/**
 * A link that leaves through the landing's `push` on a plain click. Its markup is the router's `Link`'s
 * (`data-discover` included), so the landing painted from the HTML, the cold render and the router's are the same.
 */
export function LeavingLink({ to, onClick, ...anchor }: LandingLinkProps) {
  const { push } = useLandingNavigation();
  return (
    <a
      {...anchor}
      href={to}
      data-discover="true"
      onClick={(event) => {
        onClick?.(event);
        if (!isPlainLeftClick(event)) return;
        event.preventDefault();
        push(to);
      }}
    />
  );
}

const LandingNavigationContext = createContext<LandingNavigation>({
  from: undefined,
  replaceWith: (to) => location.replace(to),
  push: (to) => location.assign(to),
  Link: LeavingLink,
});

export const LandingNavigationProvider = LandingNavigationContext.Provider;

export function useLandingNavigation(): LandingNavigation {
  return useContext(LandingNavigationContext);
}
