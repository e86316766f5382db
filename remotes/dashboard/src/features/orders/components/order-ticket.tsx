import { zodResolver } from '@hookform/resolvers/zod';
import type { CreateOrderRequest, FuturesOrder, SymbolInfo } from '@kestrel/contracts';
import { Button, Card, CardContent, CardDescription, CardHeader, cn, Input, NativeSelect } from '@kestrel/ui';
import { Form, FormField, FormMessage } from '@kestrel/ui/form';
import { useEffect, useRef, useState } from 'react';
import { type Resolver, useForm, useWatch } from 'react-hook-form';
import { describeOrder, precisionOf } from '../lib/describe-action';
import { failureText, type OrderFailure } from '../lib/order-failure';
import {
  defaultTicketValues,
  needsPrice,
  needsTrigger,
  TICKET_TYPE_LABELS,
  TICKET_TYPES,
  type TicketValues,
  ticketSchema,
} from '../lib/order-ticket';
import { ConfirmActionDialog } from './confirm-action-dialog';

export interface OrderTicketProps {
  defaultSymbol: string;
  /** The symbol's trading rules, once loaded (the ticket checks quantity and prices against them) */
  infoOf: (symbol: string) => SymbolInfo | undefined;
  /** The ticket's symbol changed: its rules should be loaded */
  onSymbolChange: (symbol: string) => void;
  /** Sends the order (once); rejects with an `OrderFailureError` */
  place: (order: CreateOrderRequest) => Promise<FuturesOrder>;
}

/** A client order id: the same id sent twice cannot make two orders (1-36 of A-Z a-z 0-9 . : / _ -) */
const newClientOrderId = () => `kweb${crypto.randomUUID().replaceAll('-', '')}`;

/** A figure of the order (its quantity, a price): decimal keypad, monospaced digits, nothing filled in by the browser */
function DecimalField({
  name,
  label,
  hint,
}: {
  name: 'quantity' | 'price' | 'triggerPrice';
  label: string;
  hint?: string;
}) {
  return (
    <FormField<TicketValues, typeof name> name={name} label={label} hint={hint} announceError={false}>
      {(control) => (
        <Input {...control} inputMode="decimal" autoComplete="off" className="db:font-mono db:tabular-nums" />
      )}
    </FormField>
  );
}

/**
 * The order ticket: limit, market, stop-market and take-profit-market, reduce-only; checked with the contract's
 * CreateOrderRequestSchema and the symbol's filters, then confirmed in a sentence before it is sent
 */
export function OrderTicket({ defaultSymbol, infoOf, onSymbolChange, place }: OrderTicketProps) {
  const infoRef = useRef(infoOf);
  infoRef.current = infoOf;
  // The rules are read at validation time: a symbol's filters arrive after the form was built
  const resolver: Resolver<TicketValues, unknown, CreateOrderRequest> = (values, context, options) =>
    zodResolver(ticketSchema(infoRef.current(values.symbol.trim().toUpperCase())))(values, context, options);
  const form = useForm<TicketValues, unknown, CreateOrderRequest>({
    resolver,
    defaultValues: defaultTicketValues(defaultSymbol),
  });
  const [review, setReview] = useState<CreateOrderRequest | null>(null);
  const [placed, setPlaced] = useState<string | null>(null);
  // Kept after a "status unknown": sending the same order again under the same id cannot place it twice
  const pendingId = useRef<{ key: string; id: string } | null>(null);
  // A confirmation of the last order must not linger beside a new one being typed
  useEffect(() => {
    const subscription = form.watch(() => setPlaced(null));
    return () => subscription.unsubscribe();
  }, [form]);
  const [type, side, symbol] = useWatch({ control: form.control, name: ['type', 'side', 'symbol'] });
  const info = infoOf(symbol.trim().toUpperCase());
  const p = precisionOf(info);

  const onSubmit = (order: CreateOrderRequest) => {
    setPlaced(null);
    form.clearErrors('root');
    setReview(order);
  };

  const send = async () => {
    if (!review) return;
    const key = JSON.stringify(review);
    if (pendingId.current?.key !== key) pendingId.current = { key, id: newClientOrderId() };
    const order = await place({ ...review, clientOrderId: pendingId.current.id });
    pendingId.current = null;
    setPlaced(
      `Order placed: ${describeOrder(review, p)} (order ${order.orderId}, ${order.status.toLowerCase()})`,
    );
  };

  const onFailure = (failure: OrderFailure) => {
    if (failure.kind !== 'unknown') pendingId.current = null;
    form.setError('root', { message: failureText(failure) });
  };

  return (
    <Card>
      <CardHeader>
        <h2 className="db:font-semibold db:leading-none">Place an order</h2>
        <CardDescription>
          {info
            ? `${info.symbol}: tick ${info.tickSize}, step ${info.stepSize}, minimum ${info.minNotional} ${info.quoteAsset}`
            : 'Checked against the symbol’s trading rules before it is sent.'}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Form form={form} onSubmit={onSubmit} aria-label="Order ticket">
          <fieldset className="db:grid db:grid-cols-2 db:gap-2">
            <legend className="db:sr-only">Side</legend>
            {(['BUY', 'SELL'] as const).map((s) => (
              <label
                key={s}
                className={cn(
                  'db:flex db:h-9 db:cursor-pointer db:items-center db:justify-center db:rounded-md db:border db:text-sm db:font-medium db:has-[:focus-visible]:outline-2 db:has-[:focus-visible]:outline-ring',
                  side === s
                    ? s === 'BUY'
                      ? 'db:border-success db:bg-success db:text-success-foreground'
                      : 'db:border-destructive db:bg-destructive db:text-destructive-foreground'
                    : 'db:border-input db:text-muted-foreground db:hover:bg-accent',
                )}
              >
                <input type="radio" value={s} className="db:sr-only" {...form.register('side')} />
                {s === 'BUY' ? 'Buy / long' : 'Sell / short'}
              </label>
            ))}
          </fieldset>
          <div className="db:grid db:grid-cols-2 db:gap-3">
            <FormField<TicketValues, 'symbol'> name="symbol" label="Symbol" announceError={false}>
              {({ onBlur, ...control }) => (
                <Input
                  {...control}
                  autoCapitalize="characters"
                  autoComplete="off"
                  spellCheck={false}
                  className="db:font-mono db:uppercase"
                  onBlur={() => {
                    onBlur();
                    onSymbolChange(control.value.trim().toUpperCase());
                  }}
                />
              )}
            </FormField>
            <FormField<TicketValues, 'type'> name="type" label="Type" announceError={false}>
              {(control) => (
                <NativeSelect {...control}>
                  {TICKET_TYPES.map((t) => (
                    <option key={t} value={t}>
                      {TICKET_TYPE_LABELS[t]}
                    </option>
                  ))}
                </NativeSelect>
              )}
            </FormField>
          </div>
          <DecimalField name="quantity" label={`Quantity${info ? ` (${info.baseAsset})` : ''}`} />
          {needsPrice(type) && <DecimalField name="price" label="Limit price" />}
          {needsTrigger(type) && (
            <DecimalField
              name="triggerPrice"
              label="Trigger price"
              hint="Fires a market order when the last price reaches it"
            />
          )}
          <label className="db:flex db:items-center db:gap-2 db:text-sm">
            <input type="checkbox" className="db:size-4" {...form.register('reduceOnly')} />
            Reduce-only (never opens or adds to a position)
          </label>
          <FormMessage />
          {placed && (
            <p role="status" className="db:text-sm db:text-success">
              {placed}
            </p>
          )}
          <Button type="submit" variant={side === 'BUY' ? 'default' : 'destructive'}>
            Review order
          </Button>
        </Form>
        {review && (
          <ConfirmActionDialog
            open
            onOpenChange={(next) => !next && setReview(null)}
            title="Place order"
            sentence={describeOrder(review, p)}
            confirmLabel="Place order"
            onConfirm={send}
            onFailure={onFailure}
          />
        )}
      </CardContent>
    </Card>
  );
}
