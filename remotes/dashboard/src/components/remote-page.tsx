import '../styles.css';
import { runtimeInstanceId } from '@kestrel/shared-runtime';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@kestrel/ui';
import type { ReactNode } from 'react';

/** Frame of every page of this remote; marks which remote and which runtime copy rendered it */
export function RemotePage({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <section
      data-remote="dashboard"
      data-runtime-instance={runtimeInstanceId}
      aria-labelledby="page-title"
      className="db:flex db:flex-col db:gap-6"
    >
      <h1 id="page-title" tabIndex={-1} className="db:text-2xl db:font-semibold db:tracking-tight">
        {title}
      </h1>
      <Card>
        <CardHeader>
          <CardTitle>{title}</CardTitle>
          <CardDescription>Rendered by the dashboard remote.</CardDescription>
        </CardHeader>
        {children && <CardContent>{children}</CardContent>}
      </Card>
    </section>
  );
}
