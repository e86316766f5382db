import { runtimeInstanceId } from '@kestrel/shared-runtime';
import { TooltipProvider } from '@kestrel/ui/tooltip';
import { NavLink, Outlet } from 'react-router-dom';
import { ConnectExchangePrompt } from '../auth/connect-exchange-prompt';
import { NavigationErrorBoundary } from '../errors/error-boundaries';
import { sidebarPages } from '../paths';
import { ThemeToggle } from '../theme/theme-toggle';
import { UserMenu } from './user-menu';

/** Sidebar + top bar around every authenticated page; the page itself comes from its remote */
export function DashboardLayout() {
  // Tooltips live in signed-in pages only, so the landing page does not load them
  return (
    <TooltipProvider>
      <div
        data-runtime-instance={runtimeInstanceId}
        className="sh:grid sh:min-h-dvh sh:grid-cols-1 sh:md:grid-cols-[15rem_1fr]"
      >
        <NavigationErrorBoundary>
          <aside className="sh:border-b sh:border-border sh:bg-card sh:md:border-r sh:md:border-b-0">
            <div className="sh:px-5 sh:py-4 sh:text-lg sh:font-semibold">Kestrel</div>
            <nav aria-label="Main">
              <ul className="sh:flex sh:flex-wrap sh:gap-1 sh:px-3 sh:pb-3 sh:md:flex-col">
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
              className="sh:flex sh:h-14 sh:items-center sh:justify-between sh:border-b sh:border-border sh:px-6"
            >
              <span className="sh:text-sm sh:text-muted-foreground">Binance USDⓈ-M futures</span>
              <div className="sh:flex sh:items-center sh:gap-2">
                <ThemeToggle />
                <UserMenu />
              </div>
            </header>
          </NavigationErrorBoundary>
          <main id="main" className="sh:flex-1 sh:p-6">
            <Outlet />
          </main>
          <ConnectExchangePrompt />
        </div>
      </div>
    </TooltipProvider>
  );
}
