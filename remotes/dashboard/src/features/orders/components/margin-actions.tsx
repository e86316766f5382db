import type { FuturesPosition, MarginType } from '@kestrel/contracts';
import { Button, Field, NativeSelect } from '@kestrel/ui';
import { useState } from 'react';
import { useSymbolConfig } from '../api/get-symbol-config';
import { useChangePositionMargin, useSetMarginType } from '../api/margin-settings';
import { isDecimal } from '../lib/decimal';
import { positionDirection } from '../lib/describe-action';
import { ConfirmActionDialog } from './confirm-action-dialog';
import { FigureInput } from './figure-input';

const MODE_WORDS: Record<MarginType, string> = { cross: 'Cross margin', isolated: 'Isolated margin' };

/**
 * A symbol's margin mode as a button that switches it, behind a confirmation saying what changes. Binance allows
 * the switch only while the symbol has no open order and no position; its refusal shows in the dialog
 */
export function MarginModeAction({ symbol, marginType }: { symbol: string; marginType: MarginType }) {
  const [open, setOpen] = useState(false);
  const setMode = useSetMarginType();
  const next: MarginType = marginType === 'cross' ? 'isolated' : 'cross';
  return (
    <>
      <Button
        size="sm"
        variant="ghost"
        className="db:underline db:decoration-dotted db:underline-offset-4"
        aria-label={`Change margin mode of ${symbol}, now ${MODE_WORDS[marginType]}`}
        onClick={() => setOpen(true)}
      >
        {MODE_WORDS[marginType]}
      </Button>
      <ConfirmActionDialog
        open={open}
        onOpenChange={setOpen}
        title="Change margin mode"
        sentence={
          next === 'isolated'
            ? `Switch ${symbol} to isolated margin: a position in it risks only the margin given to it, and is liquidated sooner. Binance allows it only with no open order and no position in ${symbol}.`
            : `Switch ${symbol} to cross margin: the whole available balance stands behind its positions, so a loss can reach all of it. Binance allows it only with no open order and no position in ${symbol}.`
        }
        confirmLabel={`Switch to ${next}`}
        onConfirm={() => setMode.mutateAsync({ symbol, marginType: next })}
      />
    </>
  );
}

function amountError(amount: string): string | undefined {
  return isDecimal(amount) && Number(amount) > 0 ? undefined : 'Enter an amount of USDT greater than 0';
}

/**
 * Margin into or out of an isolated position (shown only for one: a cross position draws on the whole balance).
 * More margin moves the liquidation price away from the mark; Binance refuses taking out what the position needs
 */
export function PositionMarginAction({ position }: { position: FuturesPosition }) {
  const config = useSymbolConfig(position.symbol, true);
  const [open, setOpen] = useState(false);
  const [action, setAction] = useState<'add' | 'remove'>('add');
  const [amount, setAmount] = useState('');
  const change = useChangePositionMargin();
  if (config.data?.marginType !== 'isolated') return null;
  const name = `${position.symbol} ${positionDirection(position)}`;
  const error = amountError(amount);
  const sentence = error
    ? `Add margin to ${name} or take some out (USDT)`
    : action === 'add'
      ? `Add ${amount} USDT of margin to ${name}: its liquidation price moves away from the mark`
      : `Take ${amount} USDT of margin out of ${name}: its liquidation price moves closer to the mark`;
  return (
    <>
      <Button
        size="sm"
        variant="outline"
        aria-label={`Adjust the margin of ${name}`}
        onClick={() => {
          setAction('add');
          setAmount('');
          setOpen(true);
        }}
      >
        Margin
      </Button>
      <ConfirmActionDialog
        open={open}
        onOpenChange={setOpen}
        title="Adjust isolated margin"
        sentence={sentence}
        confirmLabel={action === 'add' ? 'Add margin' : 'Remove margin'}
        confirmDisabled={error !== undefined}
        destructive={action === 'remove'}
        onConfirm={() =>
          change.mutateAsync({
            symbol: position.symbol,
            positionSide: position.positionSide,
            action,
            amount,
          })
        }
      >
        <Field label="Change" announceError={false}>
          {(control) => (
            <NativeSelect
              {...control}
              value={action}
              onChange={(e) => setAction(e.target.value === 'remove' ? 'remove' : 'add')}
            >
              <option value="add">Add margin</option>
              <option value="remove">Remove margin</option>
            </NativeSelect>
          )}
        </Field>
        <Field
          label="Amount (USDT)"
          hint={`The position holds ${Number(position.initialMargin).toFixed(2)} USDT of initial margin at the mark`}
          error={amount === '' ? undefined : error}
          announceError={false}
        >
          {(control) => <FigureInput {...control} value={amount} onValueChange={setAmount} />}
        </Field>
      </ConfirmActionDialog>
    </>
  );
}
