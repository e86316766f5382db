import type { RemoteName } from '@kestrel/contracts';
// By the package's name, not a relative path: this entry point's chunk then reuses the main entry's module
// instead of carrying its own copy of the config code (and the RxJS under it) to every page with a remote
import { getRuntimeConfig } from '@kestrel/shared-runtime';
import { RemoteFallback, RemoteLoading } from '@kestrel/ui';
import {
  Component,
  createContext,
  type ErrorInfo,
  type ReactNode,
  useContext,
  useEffect,
  useState,
} from 'react';
import { loadRemoteComponent, type RemoteComponent, type RemoteComponentLoader } from './remote-loader';
import { RemoteIncompatibleError } from './version-check';

const LoaderContext = createContext<RemoteComponentLoader>(loadRemoteComponent);

/** Replaces the federation loader below it; tests use it to stand in for remotes */
export const RemoteLoaderProvider = LoaderContext.Provider;

/** Used when the run-time config is not loaded (a unit test or a page outside the shell) */
const DEFAULT_REMOTE_LOAD_TIMEOUT_MS = 10_000;

export type RemoteSlotProps<P extends object> = {
  remote: RemoteName;
  /** Exposed module, e.g. `./DashboardPage` */
  module: string;
  /** What the slot shows, in words a user understands ("Dashboard"); used in the fallback */
  title: string;
  props?: P;
  /** How long the slot waits before offering the fallback; defaults to the run-time config */
  timeoutMs?: number;
  /**
   * Render nothing until the component is ready, and nothing if it fails: for optional extras such as a modal,
   * where a loading box or a fallback card would be out of place
   */
  quiet?: boolean;
};

type SlotState<P extends object> =
  | { status: 'loading' }
  | { status: 'ready'; Component: RemoteComponent<P> }
  | { status: 'failed'; error: unknown }
  | { status: 'slow' };

function configuredTimeout(): number {
  try {
    return getRuntimeConfig().remoteLoadTimeoutMs;
  } catch {
    return DEFAULT_REMOTE_LOAD_TIMEOUT_MS;
  }
}

/**
 * Renders a component from a federated remote. A remote that is down, slow or throws only affects this slot:
 * it shows a contained fallback with Retry, and the shell and the other remotes keep working.
 */
export function RemoteSlot<P extends object>({
  remote,
  module,
  title,
  props,
  timeoutMs,
  quiet = false,
}: RemoteSlotProps<P>) {
  const load = useContext(LoaderContext);
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<SlotState<P>>({ status: 'loading' });
  const wait = timeoutMs ?? configuredTimeout();

  useEffect(() => {
    let current = true;
    setState({ status: 'loading' });
    // A slow remote gets the fallback, but still appears if it arrives later
    const timer = setTimeout(() => current && setState({ status: 'slow' }), wait);
    load<P>(remote, module, { fresh: attempt > 0 }).then(
      (Component) => {
        // Settled: the slow fallback must not replace a page that already arrived
        clearTimeout(timer);
        if (current) setState({ status: 'ready', Component });
      },
      (error: unknown) => {
        clearTimeout(timer);
        if (!current) return;
        console.warn(`Remote module ${remote}/${module} failed to load`, error);
        setState({ status: 'failed', error });
      },
    );
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [load, remote, module, attempt, wait]);

  const retry = () => setAttempt((a) => a + 1);

  if (quiet && state.status !== 'ready') return null;
  switch (state.status) {
    case 'loading':
      return <RemoteLoading data-remote-slot={remote} data-state="loading" title={title} />;
    case 'slow':
      return (
        <RemoteFallback
          data-remote-slot={remote}
          data-state="slow"
          title={`${title} is taking longer than usual`}
          message="It is still loading. The rest of Kestrel keeps working meanwhile."
          onRetry={retry}
        />
      );
    case 'failed':
      if (state.error instanceof RemoteIncompatibleError) {
        return (
          <RemoteFallback
            data-remote-slot={remote}
            data-state="incompatible"
            title={`${title} needs a matching deployment`}
            message={state.error.message}
            onRetry={retry}
          />
        );
      }
      return (
        <RemoteFallback
          data-remote-slot={remote}
          data-state="failed"
          title={`${title} is unavailable right now`}
          message="This part of Kestrel could not be loaded. The rest of Kestrel keeps working."
          onRetry={retry}
        />
      );
    case 'ready':
      return (
        <RemoteErrorBoundary key={attempt} remote={remote} title={title} onRetry={retry} quiet={quiet}>
          <state.Component {...(props ?? ({} as P))} />
        </RemoteErrorBoundary>
      );
  }
}

type BoundaryProps = {
  remote: RemoteName;
  title: string;
  onRetry: () => void;
  quiet: boolean;
  children: ReactNode;
};

/** Catches a remote that throws while rendering, so it cannot take the page down with it */
class RemoteErrorBoundary extends Component<BoundaryProps, { crashed: boolean }> {
  override state = { crashed: false };

  static getDerivedStateFromError(): { crashed: boolean } {
    return { crashed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.warn(`Remote ${this.props.remote} crashed while rendering`, error, info.componentStack);
  }

  override render(): ReactNode {
    if (!this.state.crashed) return this.props.children;
    if (this.props.quiet) return null;
    return (
      <RemoteFallback
        data-remote-slot={this.props.remote}
        data-state="crashed"
        title={`${this.props.title} stopped working`}
        message="Something went wrong in this part of Kestrel. The rest of Kestrel keeps working."
        onRetry={this.props.onRetry}
      />
    );
  }
}
