import { Button } from '@kestrel/ui';
import { Component, type ErrorInfo, type ReactNode } from 'react';

type Props = { children: ReactNode };

/** A crash below it is logged as "<what> crashed" and `fallback` shows in its place */
class CrashBoundary extends Component<Props & { what: string; fallback: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error(`${this.props.what} crashed`, error, info.componentStack);
  }

  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

/** Spec §2: the whole-app error screen, with a way out */
export function AppErrorBoundary({ children }: Props) {
  return (
    <CrashBoundary
      what="Kestrel"
      fallback={
        <main
          role="alert"
          className="sh:mx-auto sh:flex sh:min-h-dvh sh:max-w-lg sh:flex-col sh:justify-center sh:gap-4 sh:p-6"
        >
          <h1 className="sh:text-2xl sh:font-semibold">Something went wrong</h1>
          <p className="sh:text-muted-foreground">We're sorry, but something unexpected happened.</p>
          <Button className="sh:w-fit" onClick={() => window.location.reload()}>
            Reload Page
          </Button>
        </main>
      }
    >
      {children}
    </CrashBoundary>
  );
}

/** Spec §2: the sidebar or top bar failed; the page itself may still work */
export function NavigationErrorBoundary({ children }: Props) {
  return (
    <CrashBoundary
      what="Navigation"
      fallback={
        <div role="alert" className="sh:p-4 sh:text-sm">
          <p className="sh:font-semibold">Navigation Error</p>
          <p className="sh:text-muted-foreground">Please refresh the page.</p>
        </div>
      }
    >
      {children}
    </CrashBoundary>
  );
}
