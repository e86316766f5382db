import { pageRoutes, type RemoteName } from '@kestrel/contracts';
// The main entry point by name (see remote-slot.tsx)
import { initKestrelRuntime, loadRuntimeConfig } from '@kestrel/shared-runtime';
import { BrowserRouter, Link, Navigate, Route, Routes } from '@kestrel/shared-runtime/router';
import { Spinner } from '@kestrel/ui';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ComponentType, lazy, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { registerRemotesFromConfig } from './remote-loader';

export type StandalonePage = {
  /** Route path, as in the shell (`:params` allowed) */
  path: string;
  title: string;
  load: () => Promise<{ default: ComponentType }>;
};

type PageModule = { default: ComponentType };

/**
 * A remote's pages from the one route table, each loaded by `loadSource` from the file the table names (the remote's
 * bootstrap passes a loader its bundler can resolve, e.g. an `import.meta.webpackContext` of its routes folder).
 */
export function standalonePages(
  remote: RemoteName,
  loadSource: (source: string) => Promise<unknown>,
): StandalonePage[] {
  return pageRoutes
    .filter((page) => page.remote === remote)
    .map((page) => ({
      path: page.path,
      title: page.title,
      load: async () => {
        const module = (await loadSource(page.source)) as Partial<PageModule>;
        if (!module.default) throw new Error(`${page.source} has no default export for ${page.path}`);
        return { default: module.default };
      },
    }));
}

/** A link target for a path with params, e.g. `/kestrel/:agentId` → `/kestrel/demo` */
const samplePath = (path: string) => path.replace(/:[^/]+/g, 'demo');

function StandaloneApp({ title, pages }: { title: string; pages: readonly StandalonePage[] }) {
  const first = pages[0];
  return (
    <BrowserRouter>
      <header
        style={{ display: 'flex', gap: '1rem', padding: '1rem', borderBottom: '1px solid var(--border)' }}
      >
        <strong>{title}</strong>
        <nav aria-label="Pages of this remote" style={{ display: 'flex', gap: '0.75rem' }}>
          {pages.map((page) => (
            <Link key={page.path} to={samplePath(page.path)}>
              {page.title}
            </Link>
          ))}
        </nav>
      </header>
      <main style={{ padding: '1.5rem' }}>
        <Suspense fallback={<Spinner />}>
          <Routes>
            {pages.map((page) => {
              const Page = lazy(page.load);
              return <Route key={page.path} path={page.path} element={<Page />} />;
            })}
            {first && <Route path="*" element={<Navigate to={samplePath(first.path)} replace />} />}
          </Routes>
        </Suspense>
      </main>
    </BrowserRouter>
  );
}

/**
 * Mounts a remote's own dev page: the same providers and run-time config as inside the shell, the remote's pages
 * in a plain frame. Lets a feature team work on its remote without the shell running.
 */
export function mountStandalone({ title, pages }: { title: string; pages: readonly StandalonePage[] }): void {
  const container = document.getElementById('root');
  if (!container) throw new Error('The page has no #root element');
  const root = createRoot(container);
  document.title = title;
  loadRuntimeConfig(`${__webpack_public_path__}config.json`).then(
    (config) => {
      registerRemotesFromConfig(config);
      // The page's runtime, as the shell creates it: pages read session and exchange state through it
      void initKestrelRuntime(config).start();
      root.render(
        <QueryClientProvider client={new QueryClient()}>
          <StandaloneApp title={title} pages={pages} />
        </QueryClientProvider>,
      );
    },
    (error: unknown) => {
      root.render(<p role="alert">{error instanceof Error ? error.message : String(error)}</p>);
    },
  );
}
