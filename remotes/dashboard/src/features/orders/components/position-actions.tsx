import type { FuturesPosition, SymbolInfo } from '@kestrel/contracts';
import { Button, Field, Input } from '@kestrel/ui';
import { useState } from 'react';
import { useCreateOrder } from '../api/create-order';
import { useSetLeverage } from '../api/set-leverage';
import { isDecimal, isMultipleOf } from '../lib/decimal';
import {
  closeOrder,
  describeClose,
  describeLeverage,
  positionDirection,
  precisionOf,
} from '../lib/describe-action';
import { ConfirmActionDialog } from './confirm-action-dialog';

export interface PositionActionsProps {
  position: FuturesPosition;
  info: SymbolInfo | undefined;
  /** The leverage the position runs at, when known */
  leverage: number | null;
}

/** A limit price rounded to the symbol's tick, as a starting value the trader edits */
function roundToTick(price: string, info: SymbolInfo | undefined): string {
  if (!info) return price;
  const decimals = precisionOf(info).price ?? 2;
  const tick = Number(info.tickSize);
  return (Math.round(Number(price) / tick) * tick).toFixed(decimals);
}

function priceError(price: string, info: SymbolInfo | undefined): string | undefined {
  if (!isDecimal(price) || Number(price) <= 0) return 'Enter a price greater than 0';
  if (info && !isMultipleOf(price, info.tickSize)) {
    return `Price must be a multiple of ${info.symbol}'s tick size ${info.tickSize}`;
  }
  return undefined;
}

function leverageError(value: string): string | undefined {
  return /^\d{1,3}$/.test(value) && Number(value) >= 1 && Number(value) <= 125
    ? undefined
    : 'Leverage must be a whole number between 1 and 125';
}

/** Market close and reduce-only limit close of one position, each behind its confirmation */
export function CloseActions({ position, info }: Omit<PositionActionsProps, 'leverage'>) {
  const [open, setOpen] = useState<'market' | 'limit' | null>(null);
  const [limitPrice, setLimitPrice] = useState('');
  const create = useCreateOrder();
  const p = precisionOf(info);
  const name = `${position.symbol} ${positionDirection(position)}`;
  const market = closeOrder(position, { type: 'MARKET' });
  const limit = closeOrder(position, { type: 'LIMIT', price: limitPrice });
  const limitError = priceError(limitPrice, info);
  const close = () => setOpen(null);

  return (
    <div className="db:flex db:justify-end db:gap-1">
      <Button
        size="sm"
        variant="outline"
        aria-label={`Market close ${name}`}
        onClick={() => setOpen('market')}
      >
        Market
      </Button>
      <Button
        size="sm"
        variant="outline"
        aria-label={`Limit close ${name}`}
        onClick={() => {
          setLimitPrice(roundToTick(position.markPrice, info));
          setOpen('limit');
        }}
      >
        Limit
      </Button>
      <ConfirmActionDialog
        open={open === 'market'}
        onOpenChange={(next) => !next && close()}
        title="Close position at market"
        sentence={describeClose(position, market, p)}
        confirmLabel="Close position"
        destructive
        onConfirm={() => create.mutateAsync(market)}
      />
      <ConfirmActionDialog
        open={open === 'limit'}
        onOpenChange={(next) => !next && close()}
        title="Close position with a limit order"
        sentence={describeClose(position, limit, p)}
        confirmLabel="Place close order"
        confirmDisabled={limitError !== undefined}
        onConfirm={() => create.mutateAsync(limit)}
      >
        <Field label="Limit price" error={limitError} announceError={false}>
          {(control) => (
            <Input
              {...control}
              inputMode="decimal"
              className="db:font-mono db:tabular-nums"
              value={limitPrice}
              onChange={(e) => setLimitPrice(e.target.value.trim())}
            />
          )}
        </Field>
      </ConfirmActionDialog>
    </div>
  );
}

/** The position's leverage as a button that changes it, behind a confirmation */
export function LeverageAction({ position, leverage }: Omit<PositionActionsProps, 'info'>) {
  const [open, setOpen] = useState(false);
  const [newLeverage, setNewLeverage] = useState('');
  const setLev = useSetLeverage();
  const levError = leverageError(newLeverage);
  return (
    <>
      <Button
        size="sm"
        variant="ghost"
        className="db:font-mono db:tabular-nums db:underline db:decoration-dotted db:underline-offset-4"
        aria-label={`Change leverage of ${position.symbol} ${positionDirection(position)}${leverage === null ? '' : `, now ${leverage}x`}`}
        onClick={() => {
          setNewLeverage(leverage === null ? '' : String(leverage));
          setOpen(true);
        }}
      >
        {leverage === null ? 'Set' : `${leverage}x`}
      </Button>
      <ConfirmActionDialog
        open={open}
        onOpenChange={setOpen}
        title="Change leverage"
        sentence={
          levError
            ? `Set ${position.symbol} leverage (1-125)`
            : describeLeverage(position.symbol, leverage, Number(newLeverage))
        }
        confirmLabel="Set leverage"
        confirmDisabled={levError !== undefined || Number(newLeverage) === leverage}
        onConfirm={() => setLev.mutateAsync({ symbol: position.symbol, leverage: Number(newLeverage) })}
      >
        <Field
          label="Leverage"
          hint="Higher leverage needs less margin and moves the liquidation price closer"
          error={levError}
          announceError={false}
        >
          {(control) => (
            <Input
              {...control}
              inputMode="numeric"
              className="db:font-mono db:tabular-nums"
              value={newLeverage}
              onChange={(e) => setNewLeverage(e.target.value.trim())}
            />
          )}
        </Field>
      </ConfirmActionDialog>
    </>
  );
}
