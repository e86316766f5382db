import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { Button, Field, Input } from '@kestrel/ui';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { getSymbolInfoQueryOptions } from '../../../api/get-symbol-info';
import { addSymbolProblem } from '../lib/watch-list';

export interface AddSymbolFormProps {
  symbols: readonly string[];
  onAdd: (symbol: string) => void;
}

/** Adds a symbol to the watch list once the exchange confirms it lists it (its trading rules answer) */
export function AddSymbolForm({ symbols, onAdd }: AddSymbolFormProps) {
  const { api } = useKestrelRuntime();
  const queryClient = useQueryClient();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [checking, setChecking] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const symbol = value.trim().toUpperCase();
    const problem = addSymbolProblem(symbols, symbol);
    if (problem) {
      setError(problem);
      return;
    }
    setChecking(true);
    try {
      const info = await queryClient.fetchQuery(getSymbolInfoQueryOptions(api, symbol));
      onAdd(info.symbol);
      setValue('');
      setError(undefined);
    } catch (err) {
      setError(err instanceof Error ? err.message : `${symbol} could not be checked`);
    } finally {
      setChecking(false);
    }
  };

  return (
    <form aria-label="Add a symbol" onSubmit={submit} noValidate className="db:flex db:items-start db:gap-2">
      <Field label="Add a symbol" error={error} className="db:flex-1 db:[&>label]:sr-only">
        {(control) => (
          <Input
            {...control}
            value={value}
            onChange={(e) => setValue(e.target.value)}
            placeholder="e.g. BNBUSDT"
            autoCapitalize="characters"
            autoComplete="off"
            spellCheck={false}
            className="db:uppercase db:placeholder:normal-case"
          />
        )}
      </Field>
      <Button type="submit" variant="outline" disabled={checking || value.trim() === ''}>
        {checking ? 'Checking…' : 'Add'}
      </Button>
    </form>
  );
}
