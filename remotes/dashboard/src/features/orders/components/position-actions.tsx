import type { FuturesPosition, SymbolInfo } from '@kestrel/contracts';
import { Button, Field, NativeSelect } from '@kestrel/ui';
import { useState } from 'react';
import { useCreateOrder } from '../api/create-order';
import { useSetLeverage } from '../api/set-leverage';
import { isDecimal, isMultipleOf } from '../lib/decimal';
import {
  closeOrder,
  describeClose,
  describeLeverage,
  partOfPosition,
  positionDirection,
  precisionOf,
} from '../lib/describe-action';
import { ConfirmActionDialog } from './confirm-action-dialog';
import { FigureInput } from './figure-input';

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

/** The parts of a position a close can take */
const CLOSE_SHARES = [25, 50, 75, 100] as const;

/** How much of the position the close takes: a share, rounded down to the lot step */
function ShareField({ value, onChange }: { value: number; onChange: (share: number) => void }) {
  return (
    <Field label="Part of the position" announceError={false}>
      {(control) => (
        <NativeSelect {...control} value={String(value)} onChange={(e) => onChange(Number(e.target.value))}>
          {CLOSE_SHARES.map((s) => (
            <option key={s} value={s}>
              {s === 100 ? 'All of it (100%)' : `${s}%`}
            </option>
          ))}
        </NativeSelect>
      )}
    </Field>
  );
}

/** Market close and reduce-only limit close of one position, all of it or a part, each behind its confirmation */
export function CloseActions({ position, info }: Omit<PositionActionsProps, 'leverage'>) {
  const [open, setOpen] = useState<'market' | 'limit' | null>(null);
  const [limitPrice, setLimitPrice] = useState('');
  const [share, setShare] = useState(100);
  const create = useCreateOrder();
  const p = precisionOf(info);
  const name = `${position.symbol} ${positionDirection(position)}`;
  const quantity = info
    ? partOfPosition(position.amount, share, info.stepSize)
    : position.amount.replace(/^-/, '');
  const market = closeOrder(position, { type: 'MARKET' }, quantity);
  const limit = closeOrder(position, { type: 'LIMIT', price: limitPrice }, quantity);
  const limitError = priceError(limitPrice, info);
  // A share below one lot step (or the symbol's minimum) cannot be sent
  const shareError =
    Number(quantity) <= 0 || (info !== undefined && Number(quantity) < Number(info.minQuantity))
      ? `${share}% of this position is below ${position.symbol}'s smallest quantity`
      : undefined;
  const close = () => setOpen(null);
  const openAs = (kind: 'market' | 'limit') => {
    setShare(100);
    setOpen(kind);
  };

  return (
    <div className="db:flex db:justify-end db:gap-1">
      <Button
        size="sm"
        variant="outline"
        aria-label={`Market close ${name}`}
        onClick={() => openAs('market')}
      >
        Market
      </Button>
      <Button
        size="sm"
        variant="outline"
        aria-label={`Limit close ${name}`}
        onClick={() => {
          setLimitPrice(roundToTick(position.markPrice, info));
          openAs('limit');
        }}
      >
        Limit
      </Button>
      <ConfirmActionDialog
        open={open === 'market'}
        onOpenChange={(next) => !next && close()}
        title="Close position at market"
        sentence={shareError ?? describeClose(position, market, p)}
        confirmLabel="Close position"
        confirmDisabled={shareError !== undefined}
        destructive
        onConfirm={() => create.mutateAsync(market)}
      >
        <ShareField value={share} onChange={setShare} />
      </ConfirmActionDialog>
      <ConfirmActionDialog
        open={open === 'limit'}
        onOpenChange={(next) => !next && close()}
        title="Close position with a limit order"
        sentence={shareError ?? describeClose(position, limit, p)}
        confirmLabel="Place close order"
        confirmDisabled={limitError !== undefined || shareError !== undefined}
        onConfirm={() => create.mutateAsync(limit)}
      >
        <ShareField value={share} onChange={setShare} />
        <Field label="Limit price" error={limitError} announceError={false}>
          {(control) => <FigureInput {...control} value={limitPrice} onValueChange={setLimitPrice} />}
        </Field>
      </ConfirmActionDialog>
    </div>
  );
}

/** The position's leverage as a button that changes it, behind a confirmation */
export function LeverageAction({ position, leverage }: Omit<PositionActionsProps, 'info'>) {
  return (
    <SymbolLeverageAction
      symbol={position.symbol}
      subject={`${position.symbol} ${positionDirection(position)}`}
      leverage={leverage}
    />
  );
}

/**
 * The leverage of a symbol (the ticket's, a position's), changed after confirming; `subject` names what it is of
 * for the button's accessible name ("BTCUSDT long")
 */
export function SymbolLeverageAction({
  symbol,
  subject,
  leverage,
}: {
  symbol: string;
  subject: string;
  leverage: number | null;
}) {
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
        aria-label={`Change leverage of ${subject}${leverage === null ? '' : `, now ${leverage}x`}`}
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
            ? `Set ${symbol} leverage (1-125)`
            : describeLeverage(symbol, leverage, Number(newLeverage))
        }
        confirmLabel="Set leverage"
        confirmDisabled={levError !== undefined || Number(newLeverage) === leverage}
        onConfirm={() => setLev.mutateAsync({ symbol: symbol, leverage: Number(newLeverage) })}
      >
        <Field
          label="Leverage"
          hint="Higher leverage needs less margin and moves the liquidation price closer"
          error={levError}
          announceError={false}
        >
          {(control) => (
            <FigureInput
              {...control}
              inputMode="numeric"
              value={newLeverage}
              onValueChange={setNewLeverage}
            />
          )}
        </Field>
      </ConfirmActionDialog>
    </>
  );
}
