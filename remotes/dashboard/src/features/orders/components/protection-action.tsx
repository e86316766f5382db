import type { FuturesOrder, FuturesPosition, SymbolInfo } from '@kestrel/contracts';
import { Button, Field, formatPrice } from '@kestrel/ui';
import { useState } from 'react';
import { useApplyProtection } from '../hooks/use-apply-protection';
import { positionDirection, precisionOf } from '../lib/describe-action';
import {
  describeProtection,
  PROTECTION_KINDS,
  type ProtectionKind,
  protectionChanges,
  protectionError,
  protectionOf,
  protectionValue,
} from '../lib/protection';
import { ConfirmActionDialog } from './confirm-action-dialog';
import { FigureInput } from './figure-input';

const FIELD_LABELS: Record<ProtectionKind, string> = {
  takeProfit: 'Take-profit (mark price)',
  stopLoss: 'Stop-loss (mark price)',
  trailingStop: 'Trailing stop (callback %)',
};
const NONE = { takeProfit: '', stopLoss: '', trailingStop: '' };

/**
 * A position's take-profit and stop-loss: what is set on the exchange, and a dialog that sets, moves or removes
 * them (close-position conditional orders at the mark price), each change an order of its own through the server
 */
export function ProtectionAction({
  position,
  info,
  orders,
}: {
  position: FuturesPosition;
  info: SymbolInfo | undefined;
  /** The account's open orders (the conditional ones among them hold the TP/SL) */
  orders: readonly FuturesOrder[];
}) {
  const [open, setOpen] = useState(false);
  const current = protectionOf(position, orders);
  const [typed, setTyped] = useState<Record<ProtectionKind, string>>(NONE);
  const applyChanges = useApplyProtection(position);
  const p = precisionOf(info);
  const name = `${position.symbol} ${positionDirection(position)}`;
  const shown = (o: FuturesOrder | undefined) =>
    o ? formatPrice(Number(o.triggerPrice), { precision: p.price }) : '–';
  const errors = Object.fromEntries(
    PROTECTION_KINDS.map((kind) => [kind, protectionError(position, kind, typed[kind], info)]),
  ) as Record<ProtectionKind, string | undefined>;
  const invalid = PROTECTION_KINDS.some((kind) => errors[kind] !== undefined);
  // Binance's order lists do not say a trailing stop's rate (the server adds it for one Kestrel placed): one set
  // elsewhere is kept unless the trader types a new rate or empties the field on purpose
  const rateUnknown = current.trailingStop !== undefined && !current.trailingStop.callbackRate;
  const [trailingTouched, setTrailingTouched] = useState(false);
  const wanted =
    rateUnknown && !trailingTouched ? { takeProfit: typed.takeProfit, stopLoss: typed.stopLoss } : typed;
  const changes = protectionChanges(current, wanted);

  const apply = () => applyChanges(changes);

  return (
    <>
      <Button
        size="sm"
        variant="ghost"
        className="db:font-mono db:text-xs db:tabular-nums"
        aria-label={`Take-profit and stop-loss of ${name}: take-profit ${shown(current.takeProfit)}, stop-loss ${shown(current.stopLoss)}${current.trailingStop ? `, trailing stop${current.trailingStop.callbackRate ? ` ${current.trailingStop.callbackRate}%` : ' set'}` : ''}`}
        onClick={() => {
          setTyped({
            takeProfit: current.takeProfit ? protectionValue('takeProfit', current.takeProfit) : '',
            stopLoss: current.stopLoss ? protectionValue('stopLoss', current.stopLoss) : '',
            trailingStop: current.trailingStop ? protectionValue('trailingStop', current.trailingStop) : '',
          });
          setTrailingTouched(false);
          setOpen(true);
        }}
      >
        {current.takeProfit || current.stopLoss || current.trailingStop
          ? `TP ${shown(current.takeProfit)} / SL ${shown(current.stopLoss)}${
              current.trailingStop
                ? ` / Trail${current.trailingStop.callbackRate ? ` ${current.trailingStop.callbackRate}%` : ''}`
                : ''
            }`
          : 'TP/SL'}
      </Button>
      <ConfirmActionDialog
        open={open}
        onOpenChange={setOpen}
        title="Take-profit and stop-loss"
        sentence={describeProtection(position, changes, p)}
        confirmLabel="Save TP/SL"
        confirmDisabled={changes.length === 0 || invalid}
        onConfirm={apply}
      >
        {PROTECTION_KINDS.map((kind) => (
          <Field
            key={kind}
            label={FIELD_LABELS[kind]}
            hint={
              kind === 'trailingStop' && rateUnknown && !trailingTouched
                ? 'One is set (Binance does not report its rate): type a rate to replace it, or clear to remove it'
                : current[kind]
                  ? 'Empty: removes it'
                  : 'Empty: none'
            }
            error={errors[kind]}
            announceError={false}
          >
            {(control) => (
              <FigureInput
                {...control}
                value={typed[kind]}
                onValueChange={(value) => {
                  if (kind === 'trailingStop') setTrailingTouched(true);
                  setTyped((t) => ({ ...t, [kind]: value }));
                }}
              />
            )}
          </Field>
        ))}
      </ConfirmActionDialog>
    </>
  );
}
