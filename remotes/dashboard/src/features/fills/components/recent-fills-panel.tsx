import type { FuturesTrade } from '@kestrel/contracts';
import { EmptyState, Spinner } from '@kestrel/ui';
import { PanelFailure } from '@kestrel/ui/panel';
import type { ReactNode } from 'react';
import { CardPanel } from '../../../components/card-panel';
import { type FillPrecision, RecentFillsTable } from './recent-fills';

export type RecentFillsPanelProps = {
  precisions: ReadonlyMap<string, FillPrecision>;
} & (
  | { state: 'no-exchange'; connectAction: ReactNode }
  | { state: 'loading' }
  | { state: 'error'; message: string; onRetry: () => void }
  | { state: 'ready'; fills: readonly FuturesTrade[] }
);

/** The recent fills panel with its loading, empty (no exchange, no fills) and error states */
export function RecentFillsPanel(props: RecentFillsPanelProps) {
  let body: ReactNode;
  if (props.state === 'no-exchange') {
    body = (
      <EmptyState
        title="No exchange connected"
        description="Your fills show here once your Binance account is connected."
        action={props.connectAction}
      />
    );
  } else if (props.state === 'loading') {
    body = <Spinner label="Loading your fills…" className="db:py-4" />;
  } else if (props.state === 'error') {
    body = <PanelFailure what="Your fills" message={props.message} onRetry={props.onRetry} />;
  } else if (props.fills.length === 0) {
    body = (
      <EmptyState
        title="No fills yet"
        description="Your trades of the last 7 days show here as soon as an order fills."
      />
    );
  } else {
    body = <RecentFillsTable fills={props.fills} precisions={props.precisions} />;
  }
  return (
    <CardPanel id="recent-fills-title" title="Recent fills">
      {body}
    </CardPanel>
  );
}
