import { runtimeInstanceId } from '@kestrel/shared-runtime';
import { NavLink, Outlet, useLocation } from '@kestrel/shared-runtime/router';
import { Button } from '@kestrel/ui';
import { useEffect, useRef, useState } from 'react';
import { ConnectExchangePrompt } from '../auth/connect-exchange-prompt';
import { NavigationErrorBoundary } from '../errors/error-boundaries';
import { NotificationBell } from '../notifications/notification-bell';
import { sidebarPages } from '../paths';
import { ThemeToggle } from '../theme/theme-toggle';
import { ConnectionStatus } from './connection-status';
import { EnvironmentSwitch } from './environment-switch';
import { StepUpPrompt } from './step-up-prompt';
import { UserMenu } from './user-menu';

/** Where the sidebar sits beside the page instead of over it (Tailwind's `md`) */
const isWideScreen = () => window.matchMedia('(min-width: 48rem)').matches;

/** Sidebar + top bar around every authenticated page; the page itself comes from its remote */
export function DashboardLayout() {
  const location = useLocation();
  const main = useRef<HTMLElement>(null);
  // Collapsed by default on narrow screens, open on wide ones
  const [menuOpen, setMenuOpen] = useState(isWideScreen);

  // Focus moves to the page on navigation, so keyboard and screen-reader users start at the new content. Keyed by the
  // path: a page updating its query string (filters, the selected run) keeps the user's focus where it is.
  const firstRender = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on each change of page, keyed by the path
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    main.current?.focus();
    if (!isWideScreen()) setMenuOpen(false);
  }, [location.pathname]);

  // No TooltipProvider here: a page with tooltips loads Radix Tooltip itself (`@kestrel/ui/tooltip`), others never do
  return (
    <>
      <a
        href="#main"
        className="sh:sr-only sh:focus:not-sr-only sh:focus:fixed sh:focus:top-2 sh:focus:left-2 sh:focus:z-50 sh:focus:rounded-md sh:focus:bg-background sh:focus:px-3 sh:focus:py-2"
      >
        Skip to content
      </a>
      <div
        data-runtime-instance={runtimeInstanceId}
        className={`sh:grid sh:min-h-dvh sh:grid-cols-1 ${menuOpen ? 'sh:md:grid-cols-[15rem_1fr]' : ''}`}
      >
        <NavigationErrorBoundary>
          <aside
            id="sidebar"
            hidden={!menuOpen}
            className="sh:border-b sh:border-border sh:bg-card sh:md:border-r sh:md:border-b-0"
          >
            <div className="sh:px-5 sh:py-4 sh:text-lg sh:font-semibold">Kestrel</div>
            <nav aria-label="Main">
              <ul className="sh:flex sh:flex-col sh:gap-1 sh:px-3 sh:pb-3">
                {sidebarPages.map((page) => (
                  <li key={page.path}>
                    <NavLink
                      to={page.path}
                      className={({ isActive }) =>
                        `sh:block sh:rounded-md sh:px-3 sh:py-2 sh:text-sm ${
                          isActive
                            ? 'sh:bg-accent sh:font-medium sh:text-accent-foreground'
                            : 'sh:text-muted-foreground sh:hover:bg-accent sh:hover:text-accent-foreground'
                        }`
                      }
                    >
                      {page.title}
                    </NavLink>
                  </li>
                ))}
              </ul>
            </nav>
          </aside>
        </NavigationErrorBoundary>
        <div className="sh:flex sh:min-w-0 sh:flex-col">
          <NavigationErrorBoundary>
            <header
              data-testid="top-bar"
              className="sh:flex sh:min-h-14 sh:flex-wrap sh:items-center sh:justify-between sh:gap-2 sh:border-b sh:border-border sh:px-4 sh:py-2 sh:md:px-6"
            >
              <div className="sh:flex sh:items-center sh:gap-3">
                <Button
                  variant="ghost"
                  size="sm"
                  aria-controls="sidebar"
                  aria-expanded={menuOpen}
                  onClick={() => setMenuOpen((open) => !open)}
                >
                  {menuOpen ? 'Hide menu' : 'Menu'}
                </Button>
                <EnvironmentSwitch />
              </div>
              <div className="sh:flex sh:items-center sh:gap-3">
                <ConnectionStatus />
                <NotificationBell />
                <ThemeToggle />
                <UserMenu />
              </div>
            </header>
          </NavigationErrorBoundary>
          <main id="main" ref={main} tabIndex={-1} className="sh:flex-1 sh:p-4 sh:outline-none sh:md:p-6">
            <Outlet />
          </main>
          <ConnectExchangePrompt />
          <StepUpPrompt />
        </div>
      </div>
    </>
  );
}
