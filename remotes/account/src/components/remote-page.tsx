import '../styles.css';
import { runtimeInstanceId } from '@kestrel/shared-runtime';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@kestrel/ui';
import type { ReactNode } from 'react';

/** Frame of every page of this remote; marks which remote and which runtime copy rendered it */
export function RemotePage({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <section
      data-remote="account"
      data-runtime-instance={runtimeInstanceId}
      aria-labelledby="page-title"
      className="ac:flex ac:flex-col ac:gap-6"
    >
      <h1 id="page-title" tabIndex={-1} className="ac:text-2xl ac:font-semibold ac:tracking-tight">
        {title}
      </h1>
      <Card>
        <CardHeader>
          <CardTitle>{title}</CardTitle>
          <CardDescription>Rendered by the account remote.</CardDescription>
        </CardHeader>
        {children && <CardContent>{children}</CardContent>}
      </Card>
    </section>
  );
}
