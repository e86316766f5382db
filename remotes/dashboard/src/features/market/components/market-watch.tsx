import { useLiveTickers } from '@kestrel/shared-runtime/react';
import { Button, Spinner } from '@kestrel/ui';
import { useSymbolPrecisions } from '../../../api/get-symbol-info';
import { CardPanel } from '../../../components/card-panel';
import { useMarketData } from '../api/get-market-data';
import { AddSymbolForm } from './add-symbol-form';
import { MarketWatchTable } from './market-watch-table';

export interface MarketWatchProps {
  symbols: readonly string[];
  selected: string;
  onSelect: (symbol: string) => void;
  onAdd: (symbol: string) => void;
  onRemove: (symbol: string) => void;
  /** Back to the default list: offered when the list cannot be loaded (a symbol the exchange stopped listing) */
  onReset: () => void;
}

/** The market watch panel: public market data, so it works before any exchange is connected */
export function MarketWatch({ symbols, selected, onSelect, onAdd, onRemove, onReset }: MarketWatchProps) {
  const query = useMarketData(symbols);
  // Rows move with each push (at most once per frame); the REST answer fills in until the first one
  const feed = useLiveTickers(symbols);
  const precisions = useSymbolPrecisions(symbols);
  return (
    <CardPanel id="market-watch-title" title="Market watch">
      {query.isPending ? (
        <div className="db:py-6 db:text-sm">
          <Spinner label="Loading prices…" />
        </div>
      ) : query.isError && !query.data ? (
        <div role="alert" className="db:flex db:flex-col db:items-start db:gap-2 db:py-4 db:text-sm">
          <p>Prices could not be loaded: {query.error.message}</p>
          <div className="db:flex db:flex-wrap db:gap-2">
            <Button variant="outline" size="sm" onClick={() => query.refetch()}>
              Retry
            </Button>
            <Button variant="outline" size="sm" onClick={onReset}>
              Reset the watch list
            </Button>
          </div>
        </div>
      ) : (
        <MarketWatchTable
          tickers={query.data ?? []}
          live={feed}
          precisions={precisions}
          selected={selected}
          onSelect={onSelect}
          onRemove={onRemove}
        />
      )}
      <AddSymbolForm symbols={symbols} onAdd={onAdd} />
    </CardPanel>
  );
}
