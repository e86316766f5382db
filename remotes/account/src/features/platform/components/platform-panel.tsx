import type { BuildInfo, RemoteName } from '@kestrel/contracts';
import {
  fetchBuildInfo,
  type RemoteLoadRecord,
  registeredRemoteEntries,
  useRemoteLoadRecords,
} from '@kestrel/shared-runtime/federation';
import { Badge, formatDateTime } from '@kestrel/ui';
import { useQuery } from '@tanstack/react-query';

const APP_NAMES: Record<'shell' | RemoteName, string> = {
  shell: 'Shell',
  dashboard: 'Dashboard remote',
  bots: 'Bots remote',
  exchange_connect: 'Exchange-connect remote',
  account: 'Account remote',
};

type AppRow = { app: 'shell' | RemoteName; entry: string; record?: RemoteLoadRecord };

/**
 * Which build of each part of the page runs, from where, how fast it loaded here and what failed: what a platform
 * engineer checks after deploying a remote on its own (a remote's address comes from the shell's config.json, so a
 * redeploy shows here on the next reload, with the build's label and commit).
 */
export function PlatformPanel() {
  const records = useRemoteLoadRecords();
  const entries = registeredRemoteEntries();
  const rows: AppRow[] = [
    { app: 'shell', entry: `${window.location.origin}/` },
    ...(Object.entries(entries) as [RemoteName, string][]).map(([app, entry]) => ({
      app,
      entry,
      record: records.find((r) => r.remote === app),
    })),
  ];
  return (
    <ul className="ac:flex ac:flex-col ac:gap-2" aria-label="Deployed parts">
      {rows.map((row) => (
        <AppBuild key={row.app} row={row} />
      ))}
    </ul>
  );
}

function AppBuild({ row }: { row: AppRow }) {
  const build = useQuery({
    queryKey: ['platform', 'build-info', row.entry],
    queryFn: ({ signal }) => fetchBuildInfo(row.entry, signal),
    staleTime: 30_000,
    retry: 1,
  });
  const name = APP_NAMES[row.app];
  const failures = row.record?.failures ?? [];
  const lastFailure = failures.at(-1);
  return (
    <li
      aria-label={name}
      className="ac:flex ac:flex-col ac:gap-1 ac:rounded-lg ac:border ac:border-border ac:p-3 ac:text-sm"
    >
      <div className="ac:flex ac:flex-wrap ac:items-center ac:gap-2">
        <strong>{name}</strong>
        {build.data?.label && <Badge variant="secondary">{build.data.label}</Badge>}
        {failures.length > 0 && (
          <Badge variant="destructive">
            {failures.length} failed load{failures.length === 1 ? '' : 's'}
          </Badge>
        )}
      </div>
      <dl className="ac:grid ac:grid-cols-[auto_1fr] ac:gap-x-3 ac:gap-y-0.5 ac:text-muted-foreground">
        <dt>From</dt>
        <dd className="ac:min-w-0 ac:break-all ac:text-foreground">{row.entry}</dd>
        <dt>Build</dt>
        <dd className="ac:text-foreground">{describeBuild(build.data, build.error)}</dd>
        <dt>On this page</dt>
        <dd className="ac:text-foreground">{describeLoad(row)}</dd>
        {lastFailure && (
          <>
            <dt>Last failure</dt>
            <dd className="ac:min-w-0 ac:break-words ac:text-foreground">
              {formatDateTime(lastFailure.at)}: {lastFailure.module} — {lastFailure.message}
            </dd>
          </>
        )}
      </dl>
    </li>
  );
}

function describeBuild(build: BuildInfo | undefined, error: Error | null): string {
  if (error) return `unknown (${error.message})`;
  if (!build) return 'reading…';
  const parts = [
    `version ${build.version}`,
    `commit ${build.commit ?? 'unknown'}`,
    `built ${formatDateTime(Date.parse(build.builtAt))}`,
  ];
  if (build.sharedRuntime) parts.push(`shared runtime ${build.sharedRuntime}`);
  return parts.join(' · ');
}

function describeLoad(row: AppRow): string {
  if (row.app === 'shell') return 'the page itself';
  const record = row.record;
  if (!record || record.modules.length === 0) return 'not loaded yet on this page';
  return `${record.modules.join(', ')} in ${record.firstLoadMs} ms`;
}
